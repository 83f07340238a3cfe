/* A struct has no member by that name. */
struct s { int a; };

BEGIN
{
	p = (struct s *)alloca(sizeof (struct s));
	trace(p->b);
}
