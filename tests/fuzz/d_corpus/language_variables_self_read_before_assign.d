/* Reading a thread-local nothing assigned or declared is an error. */
BEGIN
{
	trace(self->never);
}
