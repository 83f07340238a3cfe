/* A builtin variable is not a function. */
BEGIN
{
	trace(pid(1));
}
