/* trace() of a void expression. */
BEGIN
{
	trace(bcopy((void *)0, (void *)0, 0));
}
