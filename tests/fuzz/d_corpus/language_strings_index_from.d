/* index() with a start position. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", index("abcabc", "b", 2), index("abcabc", "b", 5));
	exit(0);
}
