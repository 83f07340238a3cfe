/* basename() of a path. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", basename("/a/b/c.txt"));
	exit(0);
}
