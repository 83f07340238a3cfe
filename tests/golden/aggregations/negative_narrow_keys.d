/* Narrow negative keys print as their type shows them in a table. */
#pragma D option quiet

BEGIN
{
	@c[(char)-1] = count();
	@s[(short)-1] = count();
	@i[(int)-1] = count();
	@l[(long)-1] = count();
	exit(0);
}
