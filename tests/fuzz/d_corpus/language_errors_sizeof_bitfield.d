/* sizeof of a bit-field member. */
struct s { int a : 3; };

BEGIN
{
	p = (struct s *)alloca(sizeof (struct s));
	trace(sizeof (p->a));
}
