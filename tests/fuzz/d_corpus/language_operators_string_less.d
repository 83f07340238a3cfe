/* Strings compare with < and > by their bytes. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", "abc" < "abd", "b" > "abc", "" < "a");
	exit(0);
}
