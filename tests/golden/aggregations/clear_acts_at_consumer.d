/* clear() acts when the consumer reads its record, as in DTrace: what the
 * same firing aggregated after it is cleared too. */
#pragma D option quiet

BEGIN
{
	@a["x"] = sum(5);
	exit(0);
}

END
{
	clear(@a);
	@a["x"] = sum(2);
	printa(@a);
}
