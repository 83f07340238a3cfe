/* cleanpath() merges repeated slashes. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", cleanpath("/a//b///c"));
	exit(0);
}
