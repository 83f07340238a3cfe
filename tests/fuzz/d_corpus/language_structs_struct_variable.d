/* A global of struct type. */
#pragma D option quiet

struct point { int x; int y; };
struct point pt;

BEGIN
{
	pt.x = 1;
	pt.y = 2;
	printf("%d %d\n", pt.x, pt.y);
	exit(0);
}
