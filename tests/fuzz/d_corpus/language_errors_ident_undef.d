/* Reading a name nobody defined. */
BEGIN
{
	trace(nosuch);
}
