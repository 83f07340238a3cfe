/* Assigning a struct copies it: later changes to the source do not show. */
#pragma D option quiet

struct point { int x; int y; };
struct point pt;

BEGIN
{
	p = (struct point *)alloca(sizeof (struct point));
	p->x = 1;
	pt = *p;
	p->x = 2;
	printf("%d %d\n", pt.x, p->x);
	exit(0);
}
