/*
 * Translators of inputs that are not pointers: an integer, a thread-local
 * variable, a struct value, each translated where it is used.
 */
#pragma D option quiet

struct pair { int a; int b; };
struct doubled { int twice; };
struct summed { int sum; };

translator struct doubled < int x > { twice = x * 2; };
translator struct summed < struct pair p > { sum = p.a + p.b; };

struct pair pr;

BEGIN
{
	self->v = 21;
	pr.a = 3;
	pr.b = 4;
	this->d = xlate<struct doubled>(self->v);
	printf("%d %d %d %d\n", xlate<struct doubled>(5).twice, xlate<struct doubled>(self->v).twice,
	    this->d.twice, xlate<struct summed>(pr).sum);
	exit(0);
}
