/* & wants integral operands. */
BEGIN
{
	trace("a" & 2);
}
