/* A struct with a union member. */
#pragma D option quiet

struct s { int kind; union { int i; char c; } u; };

BEGIN
{
	p = (struct s *)alloca(sizeof (struct s));
	p->u.i = 65;
	printf("%c %d\n", p->u.c, sizeof (struct s));
	exit(0);
}
