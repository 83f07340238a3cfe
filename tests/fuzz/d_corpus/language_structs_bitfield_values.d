/* Bit-fields hold values of their width. */
#pragma D option quiet

struct f { unsigned int a : 3; unsigned int b : 5; };

BEGIN
{
	p = (struct f *)alloca(sizeof (struct f));
	p->a = 5;
	p->b = 17;
	printf("%d %d %d\n", p->a, p->b, sizeof (struct f));
	exit(0);
}
