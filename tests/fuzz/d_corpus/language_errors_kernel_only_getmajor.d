/* getmajor() reads kernel state: not available here. */
BEGIN
{
	trace(getmajor(0));
}
