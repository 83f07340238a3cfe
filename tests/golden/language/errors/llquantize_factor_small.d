/* llquantize() factor below two. */
BEGIN
{
	@ = llquantize(1, 1, 0, 6, 20);
}
