/* A cast binds tighter than a shift. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", (char)0x1ff >> 1);
	exit(0);
}
