/* offsetof of a member that does not exist. */
struct s { int a; };

BEGIN
{
	trace(offsetof(struct s, b));
}
