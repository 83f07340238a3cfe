/* A subroutine argument of the wrong type. */
BEGIN
{
	trace(strlen(1));
}
