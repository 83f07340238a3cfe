/* The optional last argument weighs each value. */
#pragma D option quiet

BEGIN
{
	@l = lquantize(2, 0, 5, 1, 10);
	@l = lquantize(3, 0, 5, 1, 3);
	exit(0);
}
