/* ++ needs a variable. */
BEGIN
{
	trace(++1);
}
