/* A variable is not a function. */
BEGIN
{
	x = 1;
	x(2);
}
