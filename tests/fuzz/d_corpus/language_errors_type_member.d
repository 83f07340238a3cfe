/* A member the struct does not have. */
struct s { int a; };

BEGIN
{
	trace(((struct s *)0)->b);
}
