#!/usr/sbin/dtrace -q -x encoding=utf8 -x agghist -s
/* agghist with -x encoding=utf8: 1/3 of 40 cells is 13 full blocks and a quarter block. */
BEGIN
{
	@a["one"] = count();
	@a["two"] = count();
	@a["two"] = count();
	exit(0);
}
