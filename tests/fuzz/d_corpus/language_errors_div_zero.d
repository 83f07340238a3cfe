/* Division by a constant zero is caught while compiling. */
BEGIN
{
	x = 1 / 0;
}
