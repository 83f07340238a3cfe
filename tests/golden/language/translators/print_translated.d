/* print() of a translated struct prints the struct the translator builds. */
#pragma D option quiet

struct inner { int x; int y; };
struct in { struct inner n; int a; };
struct out { struct inner i; int z; long unset; };

translator struct out < struct in *p > {
	i = p->n;
	z = p->a * 10;
};

BEGIN
{
	this->p = (struct in *)alloca(sizeof (struct in));
	this->p->a = 4;
	this->p->n.x = 5;
	this->p->n.y = 6;
	print(xlate<struct out>(this->p));
	printf("\n");
	exit(0);
}
