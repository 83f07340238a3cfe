/* Bitwise operators and shifts. */
#pragma D option quiet

BEGIN
{
	x = 0xf0;
	printf("%x %x %x %x\n", x & 0x3c, x | 0x0f, x ^ 0xff, ~x & 0xff);
	printf("%d %d %d\n", 1 << 10, 1024 >> 3, -16 >> 2);
	y = -16;
	printf("%d %x\n", y >> 2, (unsigned int)y >> 28);
	exit(0);
}
