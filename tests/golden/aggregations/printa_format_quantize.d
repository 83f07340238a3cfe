/* %@d of a distribution prints the whole distribution. */
#pragma D option quiet

BEGIN
{
	@q["k"] = quantize(5);
	printa("key %s:%@d\n", @q);
	exit(0);
}
