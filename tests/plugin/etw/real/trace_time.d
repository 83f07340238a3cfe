/*
 * tick-N fires on trace time. This trace's header records carry the start of
 * its session (at boot), 8 hours before the events the file holds (the
 * session kept them in memory and wrote them at shutdown): trace time starts
 * at those events, so tick-1s fires for the 4 seconds they span, not for
 * every second since boot.
 */
int n;

diag:::events
{
	n++;
}

tick-1s
{
	printf("%d records in the second before %d\n", n, timestamp);
	n = 0;
}

END
{
	printf("%d records after the last tick\n", n);
}
