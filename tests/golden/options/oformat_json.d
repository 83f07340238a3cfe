#!/usr/sbin/dtrace -s
/* -x oformat=json: a firing's trace() and printf() as one JSON line, then one
   line per aggregation, scalar and distribution values as numbers. */
#pragma D option oformat=json
#pragma D option quiet

BEGIN
{
	@counts[probename, 3] = count();
	@q = quantize(5);
	@l = lquantize(3, 0, 10, 2);
	@mean = avg(7);
	@neg = sum(-4);
	trace(1);
	trace("two \"quoted\"\ttab");
	printf("x%d\n", 2);
	exit(0);
}
