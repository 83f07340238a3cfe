/* No translator from string to info_t. */
typedef struct info { int a; } info_t;
translator info_t < int x > { a = x; };

BEGIN
{
	trace(xlate <info_t> ("s").a);
}
