#pragma D option quiet

BEGIN
{
	@l = lquantize(3, 0, 10, 2);
	@l = lquantize(4, 0, 10, 2);
	@l = lquantize(5, 0, 10, 2);
	@l = lquantize(9, 0, 10, 2);
	exit(0);
}
