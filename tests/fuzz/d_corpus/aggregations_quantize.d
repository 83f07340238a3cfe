#pragma D option quiet

BEGIN
{
	@q = quantize(0);
	@q = quantize(1);
	@q = quantize(3);
	@q = quantize(3);
	@q = quantize(1000);
	@l = lquantize(5, 0, 10, 2);
	@l = lquantize(-1, 0, 10, 2);
	@l = lquantize(12, 0, 10, 2);
	exit(0);
}
