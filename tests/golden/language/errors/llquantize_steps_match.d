/* llquantize() parameters that differ from the first use of the aggregation. */
BEGIN
{
	@ = llquantize(1, 10, 0, 6, 20);
	@ = llquantize(2, 10, 0, 6, 50);
}
