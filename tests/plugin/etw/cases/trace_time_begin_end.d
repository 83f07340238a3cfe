/*
 * BEGIN runs at the trace's first time, END at its last, ERROR at the
 * faulting event's: the usual elapsed-time report measures the trace.
 */
BEGIN
{
	start = timestamp;
	printf("BEGIN at %Y\n", walltimestamp);
}

tcpip:::send
/args[1]->tcp_seq == 1500/
{
	trace(*(int *)0);
}

ERROR
{
	printf("ERROR %d ms after BEGIN\n", (timestamp - start) / 1000000);
}

END
{
	printf("END %d ms after BEGIN, at %Y\n", (timestamp - start) / 1000000, walltimestamp);
}
