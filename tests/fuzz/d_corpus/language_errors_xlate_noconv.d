/* The translator does not define member b. */
typedef struct info { int a; int b; } info_t;
translator info_t < int x > { a = x; };

BEGIN
{
	trace(xlate <info_t> (1).b);
}
