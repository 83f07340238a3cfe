/* The last macro argument must be used. */
BEGIN
{
	trace($1);
	exit(0);
}
