/* Strings do not support arithmetic. */
BEGIN
{
	trace("a" + 1);
}
