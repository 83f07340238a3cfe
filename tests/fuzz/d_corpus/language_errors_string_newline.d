/* A string literal may not span lines. */
BEGIN
{
	trace("abc
	def");
}
