/* Compound assignment and ++ on a member of a struct variable. */
#pragma D option quiet

struct point { int x; int y; };
struct point pt;

BEGIN
{
	pt.x = 5;
	pt.x += 10;
	pt.y++;
	printf("%d %d\n", pt.x, pt.y);
	exit(0);
}
