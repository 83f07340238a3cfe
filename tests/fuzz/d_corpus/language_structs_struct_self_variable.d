/* A thread-local of struct type. */
#pragma D option quiet

struct point { int x; int y; };
self struct point pt;

BEGIN
{
	self->pt.x = 5;
	printf("%d\n", self->pt.x);
	exit(0);
}
