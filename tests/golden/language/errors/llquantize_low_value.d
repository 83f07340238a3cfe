/* llquantize() low magnitude outside an unsigned 16-bit quantity. */
BEGIN
{
	@ = llquantize(1, 10, -1, 6, 20);
}
