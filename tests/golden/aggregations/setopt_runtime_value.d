/* The name and value are strings computed when the probe fires. */
#pragma D option quiet

BEGIN
{
	@a[1, "b"] = sum(1);
	@a[2, "a"] = sum(2);
	opt = "aggsortkeypos";
	setopt("aggsortkey");
	setopt(opt, lltostr(1));
	printa(@a);
	exit(0);
}
