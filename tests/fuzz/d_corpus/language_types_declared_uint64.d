/* A declared uint64_t global holds 64-bit values. */
#pragma D option quiet

uint64_t big;

BEGIN
{
	big = 0xffffffffffffffff;
	printf("%u %d\n", big, big > 0);
	exit(0);
}
