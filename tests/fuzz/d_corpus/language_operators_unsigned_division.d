/*
 * Division is done on the 64-bit registers, signed or unsigned as the
 * operands' common type is: -6 / 4U divides 0xfffffffffffffffa unsigned and
 * prints the low 32 bits of the quotient (C would print 1073741822).
 */
#pragma D option quiet

BEGIN
{
	y = -6;
	printf("%u\n", y / 4U);
	printf("%d\n", y / 4);
	printf("%llu\n", y / 4ULL);
	exit(0);
}
