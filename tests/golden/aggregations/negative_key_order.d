/* Keys compare as unsigned numbers of their size: negative ones sort last. */
#pragma D option quiet

BEGIN
{
	@a[(int)-1] = count();
	@a[(int)1] = count();
	@a[(int)-2] = count();
	@a[(int)2] = count();
	exit(0);
}
