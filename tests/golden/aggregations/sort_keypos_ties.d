/* Without aggsortkey, aggsortkeypos still picks the key element that breaks ties first. */
#pragma D option quiet
#pragma D option aggsortkeypos=1

BEGIN
{
	@a[1, "b"] = count();
	@a[2, "a"] = count();
	@a[3, "c"] = count();
	exit(0);
}
