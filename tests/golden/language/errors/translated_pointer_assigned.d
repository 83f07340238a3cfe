/*
 * A translated pointer cannot be assigned: the object it points at exists
 * only member by member (unsure: the message follows DTrace's assignment
 * check and its names for translated data).
 */
typedef struct out { int x; } out_t;
translator out_t < int v > { x = v; };

BEGIN
{
	p = xlate<out_t *>(3);
}
