/* The divisor is evaluated when the probe fires. */
#pragma D option quiet

BEGIN
{
	secs = 5;
	@a = count();
	@a = count();
	@a = count();
	@a = count();
	@a = count();
	@a = count();
	@a = count();
	@a = count();
	@a = count();
	@a = count();
	normalize(@a, secs);
	printa("%@d per second\n", @a);
	exit(0);
}
