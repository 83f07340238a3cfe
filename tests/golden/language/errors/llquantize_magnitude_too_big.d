/* llquantize() factor raised to the high magnitude overflows 64 bits. */
BEGIN
{
	@ = llquantize(1, 10, 0, 100, 20);
}
