/*
 * Bit-fields in D declarations are not packed: each takes the smallest power
 * of two number of bytes that holds it, starting at a byte boundary.
 */
#pragma D option quiet

struct flags {
	unsigned int a : 1;
	unsigned int b : 3;
	unsigned int c : 12;
	int d;
};

BEGIN
{
	printf("%d %d\n", offsetof(struct flags, d), sizeof (struct flags));
	exit(0);
}
