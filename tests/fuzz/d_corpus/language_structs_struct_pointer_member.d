/* A pointer member followed with ->. */
#pragma D option quiet

struct node { int v; struct node *next; };

BEGIN
{
	a = (struct node *)alloca(sizeof (struct node));
	b = (struct node *)alloca(sizeof (struct node));
	a->next = b;
	b->v = 42;
	printf("%d\n", a->next->v);
	exit(0);
}
