/* The default output divides signed. */
#pragma D option quiet

BEGIN
{
	@a = avg(-10);
	@a = avg(-21);
	exit(0);
}
