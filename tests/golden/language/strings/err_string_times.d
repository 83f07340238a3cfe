/* Multiplication wants arithmetic operands. */
BEGIN
{
	trace("a" * 2);
}
