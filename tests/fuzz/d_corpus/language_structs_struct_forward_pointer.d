/* A pointer to a struct declared later. */
#pragma D option quiet

struct a { struct b *bp; };
struct b { int v; };

BEGIN
{
	printf("%d\n", sizeof (struct a));
	exit(0);
}
