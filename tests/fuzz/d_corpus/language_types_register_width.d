/*
 * DTrace computes in 64-bit registers and narrows a value only when it is
 * recorded, cast, or passed as an argument: an int that overflows stays
 * positive in a comparison while printf's %d shows the recorded 32 bits.
 * A cast to the type a value already has changes nothing, so (int)x < 0
 * is still false (DTrace's dt_cg_typecast emits no code for it).
 */
#pragma D option quiet

BEGIN
{
	printf("%d\n", 2147483647 + 1);
	printf("%d\n", (2147483647 + 1) > 0);
	x = 2147483647;
	x++;
	printf("%d %d %d\n", x, x > 0, x == -2147483648);
	printf("%d\n", (int)x < 0);
	printf("%d\n", 1 << 33);
	printf("%d\n", (1 << 33) != 0);
	exit(0);
}
