/* printa() computes an average with %@ unsigned, as DTrace does: a
 * negative mean prints as a huge number there, unlike the default output. */
#pragma D option quiet

BEGIN
{
	@a = avg(-10);
	@a = avg(-20);
	printa("%@d\n", @a);
	exit(0);
}
