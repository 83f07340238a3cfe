/* root is the firing process's root directory. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", root);
	exit(0);
}
