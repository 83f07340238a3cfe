/* trace() of a string prints it. */
BEGIN
{
	trace("traced");
	exit(0);
}
