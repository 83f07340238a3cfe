/* A pointer to a struct steps by the struct's size. */
#pragma D option quiet

struct pair {
	long a;
	long b;
};

BEGIN
{
	p = (struct pair *)0x100;
	printf("%p %p\n", p + 1, &p->b);
	printf("%d\n", (p + 4) - p);
	exit(0);
}
