/* A struct global keeps its members from clause to clause. */
#pragma D option quiet

struct point { int x; int y; };
struct point pt;

BEGIN
{
	pt.x = 3;
}

BEGIN
{
	pt.y = 4;
}

BEGIN
{
	printf("%d %d\n", pt.x, pt.y);
	exit(0);
}
