/* LL makes a long long constant. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", sizeof (1LL), sizeof (1ll));
	exit(0);
}
