/* xlate with no translator for the input type. */
typedef struct out { int a; } out_t;
translator out_t < int x > { a = x; };

BEGIN
{
	trace(xlate<out_t *>("str")->a);
}
