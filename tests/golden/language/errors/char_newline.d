/* A newline inside a character constant. */
BEGIN
{
	c = '
';
}
