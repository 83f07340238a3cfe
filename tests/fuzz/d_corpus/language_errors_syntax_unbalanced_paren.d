/* An unbalanced parenthesis. */
BEGIN
{
	trace((1 + 2);
}
