/* & of a bit-field. */
struct s { int a : 3; };

BEGIN
{
	p = (struct s *)alloca(sizeof (struct s));
	trace(&p->a);
}
