/*
 * The consumer reads the records made before END fires, so a clear() in
 * the clause that calls exit() acts before END's clauses run.
 */

#pragma D option quiet

BEGIN
{
	@c = count();
	@c = count();
}

tick-50ms
{
	clear(@c);
	exit(0);
}

END
{
	@c = count();
}
