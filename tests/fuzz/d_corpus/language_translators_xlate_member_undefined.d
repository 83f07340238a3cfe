/* A member the translator does not define. */
typedef struct out { int a; int b; } out_t;
translator out_t < int x > { a = x; };

BEGIN
{
	trace(xlate<out_t *>(1)->b);
}
