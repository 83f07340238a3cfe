/* aggsortkeypos=1: the second key element is compared first. */
#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortkeypos=1

BEGIN
{
	@a[1, "z"] = sum(1);
	@a[2, "y"] = sum(1);
	@a[3, "x"] = sum(1);
	@a[0, "x"] = sum(1);
	exit(0);
}
