/* Values below the lower bound and at or above the upper one get their own rows. */
#pragma D option quiet

BEGIN
{
	@l = lquantize(-5, 0, 100, 10);
	@l = lquantize(50, 0, 100, 10);
	@l = lquantize(100, 0, 100, 10);
	@l = lquantize(1000, 0, 100, 10);
	exit(0);
}
