/* index() of an empty string is 0. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", index("abc", ""));
	exit(0);
}
