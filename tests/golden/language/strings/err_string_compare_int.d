/* A string compares with strings, char pointers and arrays, and NULL only. */
BEGIN
{
	s = "a";
	trace(s < 1);
}
