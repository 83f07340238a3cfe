/* A typedef names a struct. */
#pragma D option quiet

typedef struct pair { int a; int b; } pair_t;

BEGIN
{
	p = (pair_t *)alloca(sizeof (pair_t));
	p->b = 2;
	printf("%d %d\n", p->b, sizeof (pair_t));
	exit(0);
}
