/* A character constant longer than an int. */
BEGIN
{
	trace('abcdefghij');
}
