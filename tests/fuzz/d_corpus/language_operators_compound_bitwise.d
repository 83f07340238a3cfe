/* &=, |=, ^=, <<= and >>=. */
#pragma D option quiet

BEGIN
{
	x = 0xf0;
	x &= 0x30;
	printf("%x\n", x);
	x |= 1;
	printf("%x\n", x);
	x ^= 0xff;
	printf("%x\n", x);
	x <<= 4;
	printf("%x\n", x);
	x >>= 8;
	printf("%x\n", x);
	exit(0);
}
