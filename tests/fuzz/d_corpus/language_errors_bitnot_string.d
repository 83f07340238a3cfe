/* ~ needs an integer operand. */
BEGIN
{
	trace(~"abc");
}
