/* strtoll() stops at the first character that is not a digit. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", strtoll("123abc"));
	exit(0);
}
