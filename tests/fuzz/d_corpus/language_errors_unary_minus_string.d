/* Unary minus needs an arithmetic operand. */
BEGIN
{
	trace(-"abc");
}
