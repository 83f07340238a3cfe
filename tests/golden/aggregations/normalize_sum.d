#pragma D option quiet

BEGIN
{
	@a["x"] = sum(1000);
	@a["y"] = sum(2500);
	normalize(@a, 100);
	printa(@a);
	exit(0);
}
