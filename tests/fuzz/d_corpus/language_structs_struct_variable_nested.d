/* A member of a struct member of a struct variable. */
#pragma D option quiet

struct in { int a; int b; };
struct out { int tag; struct in i; };
struct out o;

BEGIN
{
	o.i.b = 4;
	o.tag = 1;
	printf("%d %d %d\n", o.tag, o.i.a, o.i.b);
	exit(0);
}
