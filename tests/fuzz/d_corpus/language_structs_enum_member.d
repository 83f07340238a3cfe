/* An enum-typed struct member. */
#pragma D option quiet

enum color { RED, GREEN };
struct s { enum color c; };

BEGIN
{
	p = (struct s *)alloca(sizeof (struct s));
	p->c = GREEN;
	printf("%d\n", p->c);
	exit(0);
}
