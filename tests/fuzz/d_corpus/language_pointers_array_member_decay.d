/* An array member decays to a pointer to its first element. */
#pragma D option quiet

struct s { char c[8]; };

BEGIN
{
	p = (struct s *)alloca(sizeof (struct s));
	p->c[0] = 'x';
	printf("%d %s\n", p->c == &p->c[0], stringof(p->c));
	exit(0);
}
