/* clear() zeroes the values; the keys still print at exit. */
#pragma D option quiet

BEGIN
{
	@a["x"] = sum(3);
	@b["x"] = sum(4);
	clear(@a);
	exit(0);
}
