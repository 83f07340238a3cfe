/* llquantize() high magnitude not above the low one. */
BEGIN
{
	@ = llquantize(1, 10, 6, 6, 20);
}
