/* quantize() needs an integer value. */
BEGIN
{
	@a = quantize("x");
}
