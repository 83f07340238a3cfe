/* A string cannot be cast to an integer. */
BEGIN
{
	x = (int)"12";
}
