/* d_path() reads kernel state: not available here. */
BEGIN
{
	trace(d_path(0));
}
