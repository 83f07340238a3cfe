#!/usr/sbin/dtrace -q -x encoding=ascii -x aggpack -s
/* -x encoding=ascii: aggpack's cells in "__xxxxXX" whatever the terminal. */
BEGIN
{
	@a = quantize(1);
	@a = quantize(2);
	@a = quantize(2);
	@a = quantize(64);
	exit(0);
}
