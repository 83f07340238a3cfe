/*
 * A trace without process events names no process: execname is "", and
 * as an aggregation key it prints as an empty string.
 */
etw:::Start
{
	@[execname, pid] = count();
}
