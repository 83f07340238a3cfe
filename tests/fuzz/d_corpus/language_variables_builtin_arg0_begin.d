/* BEGIN has no arguments: arg0 is 0. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", arg0, arg9);
	exit(0);
}
