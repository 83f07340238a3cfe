/* A misaligned 8-byte load faults: invalid alignment. */
BEGIN
{
	trace(*(uint64_t *)0x1001);
}

BEGIN
{
	exit(0);
}
