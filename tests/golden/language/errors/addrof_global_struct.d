/* & of a global struct variable: D variables have no address. */
struct s {
	int a;
};

struct s g;

BEGIN
{
	trace(&g);
}
