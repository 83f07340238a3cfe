/* A subroutine called with the wrong number of arguments. */
BEGIN
{
	trace(strlen());
}
