/* llquantize() takes at most an increment after its parameters. */
BEGIN
{
	@ = llquantize(1, 10, 0, 6, 20, 1, 2);
}
