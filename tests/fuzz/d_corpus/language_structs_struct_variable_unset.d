/* A struct variable never stored reads as zeroes. */
#pragma D option quiet

struct point { int x; int y; };
struct point pt;

BEGIN
{
	printf("%d %d\n", pt.x, pt.y);
	exit(0);
}
