/* Reading a global nothing assigned or declared is an error. */
BEGIN
{
	x = x + 1;
}
