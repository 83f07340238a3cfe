/* A string and an integer subtract only in that order. */
BEGIN
{
	x = 1 - "a";
}
