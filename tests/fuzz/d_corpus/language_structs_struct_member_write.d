/* Members of a struct in scratch memory are written and read. */
#pragma D option quiet

struct point { int x; int y; };

BEGIN
{
	p = (struct point *)alloca(sizeof (struct point));
	p->x = 3;
	p->y = 4;
	printf("%d %d\n", p->x, p->y);
	exit(0);
}
