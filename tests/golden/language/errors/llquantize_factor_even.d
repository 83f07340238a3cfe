/* llquantize() steps that the factor does not divide evenly. */
BEGIN
{
	@ = llquantize(1, 10, 0, 6, 25);
}
