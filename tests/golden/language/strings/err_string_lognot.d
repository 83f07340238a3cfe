/* ! wants a scalar: a string is not one. */
BEGIN
{
	s = "a";
	trace(!s);
}
