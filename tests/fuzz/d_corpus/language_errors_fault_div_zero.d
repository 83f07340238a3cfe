/* Division by zero at run time faults. */
BEGIN
{
	x = 0;
	trace(5 / x);
}

BEGIN
{
	exit(0);
}
