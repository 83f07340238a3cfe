/*
 * The rule breaker is reported on its own line; assignments and discard()
 * record nothing, so they may come before speculate().
 */
BEGIN
{
	x = 1;
	discard(2);
	speculate(1);
	printf("ok\n");
}

BEGIN
{
	speculate(1);
	trace(1);
	exit(0);
}
