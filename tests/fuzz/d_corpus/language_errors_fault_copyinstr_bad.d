/* copyinstr() of an unmapped user address faults. */
BEGIN
{
	trace(copyinstr(0x1000));
}

BEGIN
{
	exit(0);
}
