/* The translator's input is evaluated once per member reference. */
#pragma D option quiet

typedef struct twice { int sum; } twice_t;

translator twice_t < int x > {
	sum = x + x;
};

BEGIN
{
	n = 1;
	printf("%d\n", xlate <twice_t> (n++).sum);
	printf("%d\n", n);
	exit(0);
}
