/* %Y is a wall-clock date; %T a duration in nanoseconds. */
#pragma D option quiet

BEGIN
{
	printf("[%Y]\n", (uint64_t)1000000000 * 86400 * 365);
	exit(0);
}
