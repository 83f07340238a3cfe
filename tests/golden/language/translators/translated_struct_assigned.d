/*
 * A translated struct assigned whole copies every member the translator
 * defines; the others are zero. *xlate<T *>(e) is the struct too.
 */
#pragma D option quiet

typedef struct out {
	int x;
	int y;
	char name[8];
	long big;
} out_t;

translator out_t < int v > {
	x = v * 2;
	name = v > 10 ? "big" : "a longer name";
	big = v;
};

out_t g;

BEGIN
{
	this->o = xlate<out_t>(21);
	printf("%d %d %s %d\n", this->o.x, this->o.y, stringof(this->o.name), this->o.big);
	g = *xlate<out_t *>(3);
	printf("%d %d %s %d %d\n", g.x, g.y, stringof(g.name), g.big, sizeof (g));
	self->s = xlate<out_t>(5);
	printf("%d\n", self->s.x);
	exit(0);
}
