/* Unary minus wants an arithmetic operand. */
BEGIN
{
	trace(-"a");
}
