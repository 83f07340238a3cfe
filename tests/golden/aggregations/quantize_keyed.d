/* One distribution per key, in order of their sums. */
#pragma D option quiet

BEGIN
{
	@q["big"] = quantize(1024);
	@q["small"] = quantize(2);
	@q["small"] = quantize(3);
	exit(0);
}
