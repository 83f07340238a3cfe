/* xlate<T>(x).m translates one member by value. */
#pragma D option quiet

typedef struct out { int a; } out_t;
translator out_t < int x > { a = x * 3; };

BEGIN
{
	printf("%d\n", xlate<out_t>(4).a);
	exit(0);
}
