/* xlate<T *>(x)->m translates one member. */
#pragma D option quiet

typedef struct out { int a; int b; } out_t;
translator out_t < int x > { a = x * 2; b = x + 1; };

BEGIN
{
	printf("%d %d\n", xlate<out_t *>(5)->a, xlate<out_t *>(5)->b);
	exit(0);
}
