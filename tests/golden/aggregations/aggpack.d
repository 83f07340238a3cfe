#pragma D option quiet
#pragma D option aggpack

BEGIN
{
	@q["x"] = quantize(1);
	@q["x"] = quantize(4);
	@q["y"] = quantize(16);
	exit(0);
}
