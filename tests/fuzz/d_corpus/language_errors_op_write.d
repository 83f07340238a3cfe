/* Builtin variables are read-only. */
BEGIN
{
	execname = "other";
}
