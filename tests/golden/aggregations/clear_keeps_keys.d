#pragma D option quiet

BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@a["y"] = count();
	printa(@a);
	clear(@a);
	printa(@a);
	exit(0);
}
