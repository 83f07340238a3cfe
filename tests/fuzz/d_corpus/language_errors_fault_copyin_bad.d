/* copyin() of an unmapped user address faults. */
BEGIN
{
	trace(*(int *)copyin(0x1000, 4));
}

BEGIN
{
	exit(0);
}
