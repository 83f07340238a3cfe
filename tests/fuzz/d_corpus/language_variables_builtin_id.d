/* id is the probe id: BEGIN is probe 1. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", id);
	exit(0);
}
