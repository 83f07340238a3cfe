#pragma D option quiet

BEGIN
{
	@a[(uint64_t)0xffffffffffffffff] = count();
	@a[(uint64_t)1] = count();
	exit(0);
}
