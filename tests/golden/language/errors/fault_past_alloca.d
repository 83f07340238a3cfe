/*
 * Reading past the end of the scratch space (8 MB), here from an alloca()
 * at its start, faults as an invalid address (the address varies from run
 * to run). Past the allocation but inside the scratch space, a read reads
 * (tests/golden/memory/tracemem_past_allocation.d).
 */
#pragma D option quiet

BEGIN
{
	p = (char *)alloca(8);
	trace(p[8 << 20]);
}

BEGIN
{
	exit(0);
}
