/* Not with a pointer to another type. */
BEGIN
{
	trace("a" == (int *)0);
}
