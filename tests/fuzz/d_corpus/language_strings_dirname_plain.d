/* dirname() of a path. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", dirname("/a/b/c.txt"));
	exit(0);
}
