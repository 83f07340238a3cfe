/* A translator may use another translator. */
#pragma D option quiet

typedef struct a { int v; } a_t;
typedef struct b { int w; } b_t;

translator a_t < int x > { v = x + 1; };
translator b_t < int y > { w = xlate <a_t> (y * 10).v; };

BEGIN
{
	printf("%d\n", xlate <b_t> (4).w);
	exit(0);
}
