/* * needs a pointer operand. */
BEGIN
{
	x = 1;
	trace(*x);
}
