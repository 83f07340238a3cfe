/* sizeof (void) is not allowed. */
BEGIN
{
	trace(sizeof (void));
}
