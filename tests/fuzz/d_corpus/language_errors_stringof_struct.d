/* stringof() of a struct is refused. */
struct s { int a; };

BEGIN
{
	p = (struct s *)alloca(sizeof (struct s));
	trace(stringof(*p));
}
