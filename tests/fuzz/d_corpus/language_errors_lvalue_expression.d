/* An expression result is not assignable. */
BEGIN
{
	x = 1;
	(x + 1) = 2;
}
