#pragma D option quiet

BEGIN
{
	@a["x"] = sum(255);
	@a["y"] = sum(4096);
	printa("%s=%@x %@X %@o\n", @a);
	exit(0);
}
