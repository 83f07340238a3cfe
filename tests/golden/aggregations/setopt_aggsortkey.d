#pragma D option quiet

BEGIN
{
	@a["c"] = sum(1);
	@a["a"] = sum(3);
	@a["b"] = sum(2);
	printa(@a);
	setopt("aggsortkey");
	printa(@a);
	exit(0);
}
