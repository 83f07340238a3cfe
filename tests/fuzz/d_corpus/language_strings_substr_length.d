/* substr(s, i, n) takes n characters. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", substr("abcdef", 1, 3));
	exit(0);
}
