/* Nested structs are aligned as their first member. */
#pragma D option quiet

struct inner {
	char tag;
	int value;
};

struct outer {
	char c;
	struct inner in;
	int *p;
};

BEGIN
{
	printf("%d %d %d\n", offsetof(struct outer, in), offsetof(struct outer, p),
	    sizeof (struct outer));
	exit(0);
}
