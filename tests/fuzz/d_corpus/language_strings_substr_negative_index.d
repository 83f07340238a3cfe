/* A negative index counts from the end. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", substr("abcdef", -2));
	exit(0);
}
