/* A string does not compare with an integer. */
BEGIN
{
	trace("a" < 1);
}
