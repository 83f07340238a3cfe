/* A translator computes each member of its output struct from its input. */
#pragma D option quiet

typedef struct info {
	int doubled;
	int negated;
	string sign;
} info_t;

translator info_t < int x > {
	doubled = x * 2;
	negated = -x;
	sign = x < 0 ? "negative" : "positive";
};

BEGIN
{
	v = 21;
	printf("%d %d %s\n", xlate <info_t> (v).doubled, xlate <info_t> (v).negated,
	    xlate <info_t> (v).sign);
	printf("%d %s\n", xlate <info_t *> (-4)->doubled, xlate <info_t *> (-4)->sign);
	exit(0);
}
