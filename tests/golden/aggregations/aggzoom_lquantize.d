/* aggzoom scales the bars to the largest bucket instead of the total. */
#pragma D option quiet
#pragma D option aggzoom

BEGIN
{
	@l = lquantize(1, 0, 4, 1, 10);
	@l = lquantize(2, 0, 4, 1, 3);
	@l = lquantize(2, 0, 4, 1, 3);
	exit(0);
}
