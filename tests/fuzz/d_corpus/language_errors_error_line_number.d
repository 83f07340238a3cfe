/* The error names the line of the offending expression. */
BEGIN
{
	x = 1;
	y = 2;
	
	z = nosuch + 1;
}
