/* Reading through a null pointer faults: invalid address (0x0). */
BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	exit(0);
}
