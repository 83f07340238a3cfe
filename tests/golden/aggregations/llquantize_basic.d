#pragma D option quiet

BEGIN
{
	@ll = llquantize(5, 10, 0, 3, 10);
	@ll = llquantize(50, 10, 0, 3, 10);
	@ll = llquantize(55, 10, 0, 3, 10);
	@ll = llquantize(500, 10, 0, 3, 10);
	@ll = llquantize(12000, 10, 0, 3, 10);
	exit(0);
}
