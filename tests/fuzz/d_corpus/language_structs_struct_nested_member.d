/* A struct member of a struct. */
#pragma D option quiet

struct in { int v; };
struct out { int a; struct in i; };

BEGIN
{
	p = (struct out *)alloca(sizeof (struct out));
	p->i.v = 6;
	printf("%d %d\n", p->i.v, offsetof(struct out, i));
	exit(0);
}
