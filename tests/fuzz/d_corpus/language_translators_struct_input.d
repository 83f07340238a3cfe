/* The input may be a pointer; members may read through it. */
#pragma D option quiet

struct raw {
	int lo;
	int hi;
};

typedef struct cooked {
	long total;
} cooked_t;

translator cooked_t < struct raw *r > {
	total = r == NULL ? -1 : 0;
};

BEGIN
{
	printf("%d\n", xlate <cooked_t> ((struct raw *)NULL).total);
	exit(0);
}
