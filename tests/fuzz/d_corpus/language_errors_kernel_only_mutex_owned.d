/* mutex_owned() reads kernel state: not available here. */
BEGIN
{
	trace(mutex_owned(0));
}
