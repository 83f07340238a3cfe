#pragma D option quiet

BEGIN
{
	@l["k"] = lquantize(3, 0, 4);
	printa("%s%@d\n", @l);
	exit(0);
}
