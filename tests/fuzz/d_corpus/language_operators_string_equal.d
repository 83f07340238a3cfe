/* Strings compare equal by content. */
#pragma D option quiet

BEGIN
{
	a = strjoin("ab", "c");
	printf("%d %d\n", a == "abc", a != "abc");
	exit(0);
}
