/* basename() ignores trailing slashes. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", basename("/a/b//"));
	exit(0);
}
