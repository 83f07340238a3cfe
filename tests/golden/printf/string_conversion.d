#pragma D option quiet

BEGIN
{
	printf("[%s][%10s][%-10s][%.3s][%5.2s]\n", "abc", "abc", "abc", "abcdef", "abcdef");
	exit(0);
}
