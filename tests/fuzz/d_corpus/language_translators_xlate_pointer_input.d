/* A translator from a pointer type reads through it. */
#pragma D option quiet

struct in { int v; };
typedef struct out { int doubled; } out_t;
translator out_t < struct in *p > { doubled = p->v * 2; };

BEGIN
{
	p = (struct in *)alloca(sizeof (struct in));
	p->v = 21;
	printf("%d\n", xlate<out_t *>(p)->doubled);
	exit(0);
}
