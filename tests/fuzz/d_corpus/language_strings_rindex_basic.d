/* rindex() finds the last occurrence. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", rindex("abcabc", "bc"), rindex("abc", "z"));
	exit(0);
}
