/* An octal constant with a digit 8 or 9. */
BEGIN
{
	trace(09);
}
