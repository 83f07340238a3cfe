/* + binds tighter than <<. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", 1 << 2 + 1);
	exit(0);
}
