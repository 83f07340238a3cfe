/*
 * Per-interval reports in a replay: each tick's printa() sees the
 * aggregations as they were at that tick of trace time, whatever the switch
 * rate, and clear()/trunc()/normalize() act there too (the replay waits for
 * the consumer to carry them out). 3000 sends, 500 a second: every tick
 * prints 500 sends, and the intervals sum to the total.
 */
tcpip:::send
{
	@sends = count();
	@total = count();
	@bytes[execname] = sum(args[0]->ip_plength);
	@ports[args[1]->tcp_seq % 7] = count();
}

tick-1s
{
	printa("%@d sends in the second before this tick\n", @sends);
	clear(@sends);
	normalize(@bytes, 2);
	printa("half the bytes of %s: %@d\n", @bytes);
	denormalize(@bytes);
	trunc(@bytes);
	trunc(@ports, 2);
	printa("seq %% 7 = %d: %@d\n", @ports);
}

END
{
	printa("%@d sends after the last tick\n", @sends);
	printa("%@d sends in all\n", @total);
}
