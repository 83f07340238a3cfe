/* AF_INET and AF_INET6 are defined. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", AF_INET, AF_INET6 > 0);
	exit(0);
}
