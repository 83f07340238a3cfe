/* aggpack with lquantize: one packed row per key, below and above the range included. */
#pragma D option quiet
#pragma D option aggpack

BEGIN
{
	@l["a"] = lquantize(-5, 0, 50, 10);
	@l["a"] = lquantize(12, 0, 50, 10);
	@l["b"] = lquantize(33, 0, 50, 10);
	@l["b"] = lquantize(33, 0, 50, 10);
	@l["b"] = lquantize(99, 0, 50, 10);
	exit(0);
}
