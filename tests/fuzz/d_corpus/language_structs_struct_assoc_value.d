/* An associative array of structs, updated member by member. */
#pragma D option quiet

struct point { int x; int y; };
struct point pts[int];

BEGIN
{
	pts[1].x = 10;
	pts[2].y = 20;
	pts[1].y = 11;
	printf("%d %d %d %d\n", pts[1].x, pts[1].y, pts[2].x, pts[2].y);
	exit(0);
}
