/* A struct-valued member of a translated struct, and its members: xlate<T>(e).m.sub. */
#pragma D option quiet

struct inner { int x; int y; };
struct in { struct inner n; int a; };
struct out { struct inner i; int z; };

translator struct out < struct in *p > {
	i = p->n;
	z = p->a;
};

BEGIN
{
	this->p = (struct in *)alloca(sizeof (struct in));
	this->p->a = 1;
	this->p->n.x = 2;
	this->p->n.y = 3;
	printf("%d %d %d\n", xlate<struct out>(this->p).z, xlate<struct out>(this->p).i.x,
	    xlate<struct out *>(this->p)->i.y);
	exit(0);
}
