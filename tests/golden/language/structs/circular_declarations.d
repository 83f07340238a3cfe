/* Structs that point at each other, declared before they are defined. */
#pragma D option quiet

struct b;
struct a { struct b *bp; int v; };
struct b { struct a *ap; int w; };

BEGIN
{
	this->a = (struct a *)alloca(sizeof (struct a));
	this->b = (struct b *)alloca(sizeof (struct b));
	this->a->bp = this->b;
	this->b->ap = this->a;
	this->a->v = 1;
	this->b->w = 2;
	printf("%d %d %d\n", this->a->bp->w, this->a->bp->ap->v, this->b->ap->bp->ap->bp->w);
	exit(0);
}
