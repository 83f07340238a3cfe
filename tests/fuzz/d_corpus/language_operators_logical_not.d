/* ! yields 0 or 1. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", !0, !5, !!5);
	exit(0);
}
