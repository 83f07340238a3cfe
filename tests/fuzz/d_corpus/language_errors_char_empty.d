/* An empty character constant. */
BEGIN
{
	trace('');
}
