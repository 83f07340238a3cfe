#!/usr/sbin/dtrace -q -x encoding=utf8 -x aggzoom -s
/* aggzoom with -x encoding=utf8: the tallest bar fills 95% of 40 cells (38 blocks). */
BEGIN
{
	@a = quantize(1);
	@a = quantize(2);
	@a = quantize(2);
	@a = quantize(2);
	exit(0);
}
