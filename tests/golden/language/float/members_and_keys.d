/*
 * Floating-point struct members: loaded by their size, compared, used as
 * aggregation keys (printa formats them with %f, the default as integers),
 * and printed whole by print().
 */
#pragma D option quiet

struct sample {
	float ratio;
	double mean;
	long double total;
	int count;
};

struct sample zero;

BEGIN
{
	this->s = (struct sample *)alloca(sizeof (struct sample));
	*(int *)&this->s->ratio = 0x40490fdb;			/* 3.14159274f */
	*(uint64_t *)&this->s->mean = 0xc00199999999999a;	/* -2.2 */
	this->s->count = 7;

	printf("%.4f %.2f %d\n", this->s->ratio, this->s->mean, this->s->count);
	printf("%d %d\n", this->s->ratio == this->s->ratio, this->s->mean != zero.mean);
	printf("%f %Lf\n", zero.ratio, zero.total);

	@samples[this->s->ratio, this->s->mean] = sum(this->s->count);
	printa("%8.3f %-10g|%@d\n", @samples);
	printa(@samples);
	print(*this->s);
	printf("\n");
	exit(0);
}
