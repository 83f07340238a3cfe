/* A negative length leaves that many characters off the end. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", substr("abcdef", 1, -2));
	exit(0);
}
