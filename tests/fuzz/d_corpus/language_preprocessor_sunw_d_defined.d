/* __SUNW_D is defined for D programs. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", __SUNW_D);
	exit(0);
}
