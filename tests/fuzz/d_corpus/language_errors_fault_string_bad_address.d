/* Reading a string at an unmapped address faults. */
BEGIN
{
	trace(stringof((char *)0x1000));
}

BEGIN
{
	exit(0);
}
