/* lquantize() needs lower < upper. */
BEGIN
{
	@a = lquantize(1, 10, 5, 1);
}
