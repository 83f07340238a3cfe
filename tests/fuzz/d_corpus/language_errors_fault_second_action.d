/* A fault in the second action keeps the first action's record out too. */
BEGIN
{
	trace(1);
	trace(*(int *)0);
}

BEGIN
{
	exit(0);
}
