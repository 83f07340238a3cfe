/*
 * DTrace lays out a D struct with CTF's rules, which do not pack bit-fields
 * together as a C compiler does: each starts at the byte after the previous
 * member and takes the smallest power of two number of bytes that holds it.
 */
#pragma D option quiet

struct two {
	unsigned int a : 1;
	unsigned int b : 3;
};

struct mixed {
	char a : 1;
	char b : 1;
	char c;
	unsigned int d : 9;
	short e;
};

BEGIN
{
	printf("%d %d %d %d\n", sizeof (struct two), offsetof(struct mixed, c), offsetof(struct mixed, e),
	    sizeof (struct mixed));
	exit(0);
}
