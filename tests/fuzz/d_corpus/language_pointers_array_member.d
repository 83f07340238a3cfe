/* An array member of a struct is indexed. */
#pragma D option quiet

struct s { int a[4]; };

BEGIN
{
	p = (struct s *)alloca(sizeof (struct s));
	p->a[2] = 7;
	printf("%d %d\n", p->a[2], sizeof (p->a));
	exit(0);
}
