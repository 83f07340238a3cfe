/* printf %s with width and precision. */
#pragma D option quiet

BEGIN
{
	printf("[%5s] [%-5s] [%.2s]\n", "ab", "ab", "abcd");
	exit(0);
}
