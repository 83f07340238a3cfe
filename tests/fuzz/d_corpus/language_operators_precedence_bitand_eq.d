/* == binds tighter than &. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", 6 & 2 == 2);
	exit(0);
}
