/* execname is the name of the firing process. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", execname);
	exit(0);
}
