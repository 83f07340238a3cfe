/* offsetof of a bit-field member. */
struct s { int a : 3; };

BEGIN
{
	trace(offsetof(struct s, a));
}
