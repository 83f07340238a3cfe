/* msgsize() reads kernel state: not available here. */
BEGIN
{
	trace(msgsize(0));
}
