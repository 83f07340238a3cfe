/* this is not a value by itself. */
BEGIN
{
	trace(this);
}
