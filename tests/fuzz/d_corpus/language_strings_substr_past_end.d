/* An index past the end gives an empty string. */
#pragma D option quiet

BEGIN
{
	printf("[%s]\n", substr("abc", 10));
	exit(0);
}
