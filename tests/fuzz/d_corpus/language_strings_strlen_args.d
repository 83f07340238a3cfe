/* strlen() takes one argument. */
BEGIN
{
	trace(strlen("a", "b"));
}
