/* Reading an unmapped address faults with that address. */
BEGIN
{
	trace(*(int *)0x1000);
}

BEGIN
{
	exit(0);
}
