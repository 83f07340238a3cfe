/* self is not a value by itself. */
BEGIN
{
	trace(self);
}
