/* A macro argument with no operand is an error. */
BEGIN
{
	trace($3);
}
