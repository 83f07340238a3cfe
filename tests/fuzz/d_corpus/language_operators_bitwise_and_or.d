/* Bitwise and, or. */
#pragma D option quiet

BEGIN
{
	printf("%x %x\n", 0xf0 & 0x3c, 0xf0 | 0x0f);
	exit(0);
}
