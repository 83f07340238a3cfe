#pragma D option quiet

BEGIN
{
	@q = quantize(-10);
	@q = quantize(-1);
	@q = quantize(0);
	@q = quantize(3);
	exit(0);
}
