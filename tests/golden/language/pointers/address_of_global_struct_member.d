/*
 * & of a member of a global struct variable is the address of the
 * variable's storage: it reads what the variable holds.
 */
#pragma D option quiet

struct s {
	int a;
	int b;
};

struct s g;

BEGIN
{
	g.a = 1;
	g.b = 4;
	p = &g.a;
	printf("%d %d\n", *p, p[1]);
	exit(0);
}
