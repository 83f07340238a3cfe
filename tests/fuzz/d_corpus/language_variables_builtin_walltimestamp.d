/* walltimestamp is nanoseconds since the epoch (after 2020). */
#pragma D option quiet

BEGIN
{
	printf("%d\n", walltimestamp > 1577836800000000000);
	exit(0);
}
