/* 64-bit arithmetic wraps. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", 0x7fffffffffffffff + 1 < 0);
	exit(0);
}
