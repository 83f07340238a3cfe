/* llquantize() with fewer steps per magnitude than the factor. */
BEGIN
{
	@ = llquantize(1, 10, 0, 6, 6);
}
