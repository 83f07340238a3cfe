/* cleanpath() removes . and .. components. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", cleanpath("/a/./b/../c"));
	exit(0);
}
