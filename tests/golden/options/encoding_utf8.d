#!/usr/sbin/dtrace -q -x encoding=utf8 -s
/* -x encoding=utf8: quantize(), lquantize() and agghist bars of Unicode block elements (whole cells, then eighths). */
BEGIN
{
	@q = quantize(1);
	@q = quantize(2);
	@q = quantize(2);
	@q = quantize(300);
	@l = lquantize(3, 0, 10, 1);
	@l = lquantize(5, 0, 10, 1);
	@l = lquantize(5, 0, 10, 1);
	@neg = quantize(4, -1);
	@neg = quantize(8);
	@neg = quantize(8);
	exit(0);
}
