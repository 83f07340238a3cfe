/* A statement without its semicolon is a syntax error. */
BEGIN
{
	x = 1
	y = 2;
}
