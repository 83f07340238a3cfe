/* A clause-local of struct type. */
#pragma D option quiet

struct point { int x; int y; };
this struct point pt;

BEGIN
{
	this->pt.y = 9;
	printf("%d %d\n", this->pt.x, this->pt.y);
	exit(0);
}
