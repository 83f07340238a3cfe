/* A whole struct assigned from scratch memory. */
#pragma D option quiet

struct point { int x; int y; };
struct point pt;

BEGIN
{
	p = (struct point *)alloca(sizeof (struct point));
	p->x = 7;
	p->y = 8;
	pt = *p;
	printf("%d %d\n", pt.x, pt.y);
	exit(0);
}
