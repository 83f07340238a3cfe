/* A constant is not assignable. */
BEGIN
{
	1 = 2;
}
