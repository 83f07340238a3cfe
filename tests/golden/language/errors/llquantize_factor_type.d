/* llquantize() factor that is not a constant. */
BEGIN
{
	factor = 10;
	@ = llquantize(1, factor, 0, 6, 20);
}
