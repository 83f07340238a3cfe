/* (*p).m is p->m. */
#pragma D option quiet

struct point { int x; int y; };

BEGIN
{
	p = (struct point *)alloca(sizeof (struct point));
	p->y = 8;
	printf("%d\n", (*p).y);
	exit(0);
}
