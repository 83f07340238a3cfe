/*
 * Character constants are ints. DTrace's escape decoding (stresc2chr) has no
 * \' escape: '\'' is the two characters \ and ', 0x5c27 = 23591.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", 'a', '\n', '\0', '\\', '\'');
	printf("%d %d\n", sizeof ('a'), '\101');
	printf("%c%c%c\n", 'D', 'T', 'r');
	exit(0);
}
