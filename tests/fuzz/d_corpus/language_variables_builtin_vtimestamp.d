/* vtimestamp is a positive count of nanoseconds. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", vtimestamp > 0);
	exit(0);
}
