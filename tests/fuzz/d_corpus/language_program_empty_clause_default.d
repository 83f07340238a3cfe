/* An empty clause records the default output. */
BEGIN
{
}

BEGIN
{
	exit(0);
}
