/*
 * A trace without process events names no process: execname is "", and
 * as an aggregation key it is dumped in hex, as DTrace's consumer prints a
 * string record with no printable byte before its NUL.
 */
etw:::Start
{
	@[execname, pid] = count();
}
