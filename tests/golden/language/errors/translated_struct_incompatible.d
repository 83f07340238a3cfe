/* A translated struct assigned to a variable of another type. */
typedef struct out { int x; } out_t;
translator out_t < int v > { x = v; };
int i;

BEGIN
{
	i = xlate<out_t>(3);
}
