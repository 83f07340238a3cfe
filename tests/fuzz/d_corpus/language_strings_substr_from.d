/* substr(s, i) is the rest from index i. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", substr("abcdef", 2));
	exit(0);
}
