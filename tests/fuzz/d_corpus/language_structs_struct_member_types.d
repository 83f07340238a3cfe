/* Members keep their types: a char member wraps. */
#pragma D option quiet

struct s { char c; unsigned short u; };

BEGIN
{
	p = (struct s *)alloca(sizeof (struct s));
	p->c = 200;
	p->u = 70000;
	printf("%d %d\n", p->c, p->u);
	exit(0);
}
