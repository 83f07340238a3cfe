/* llquantize with factor 2 over several magnitudes, a negative value and zero. */
#pragma D option quiet

BEGIN
{
	@ll = llquantize(-3, 2, 0, 4, 4);
	@ll = llquantize(0, 2, 0, 4, 4);
	@ll = llquantize(3, 2, 0, 4, 4);
	@ll = llquantize(9, 2, 0, 4, 4);
	@ll = llquantize(9, 2, 0, 4, 4);
	@ll = llquantize(13, 2, 0, 4, 4);
	@ll = llquantize(40, 2, 0, 4, 4);
	exit(0);
}
