/* An integer key prints in the width of its type, as DTrace records it. */
#pragma D option quiet

BEGIN
{
	@c[(char)7] = count();
	@s[(short)7] = count();
	@i[(int)7] = count();
	@l[(long)7] = count();
	exit(0);
}
