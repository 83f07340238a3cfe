#pragma D option quiet
#pragma D option aggzoom

BEGIN
{
	@q = quantize(1);
	@q = quantize(2);
	@q = quantize(2);
	@q = quantize(4);
	exit(0);
}
