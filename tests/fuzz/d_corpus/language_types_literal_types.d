/* Integer literals take C's types: suffixes and radix decide. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", sizeof (1), sizeof (1L), sizeof (1U), sizeof (1ULL));
	printf("%d %d\n", sizeof (2147483648), sizeof (0x80000000));
	printf("%d %d\n", -1 < 0x80000000, -1 < 2147483648);
	printf("%x %o %d\n", 0xff, 010, 0x10);
	exit(0);
}
