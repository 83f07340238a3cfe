/* A bit-field keeps only its low bits. */
#pragma D option quiet

struct f { unsigned int a : 3; };

BEGIN
{
	p = (struct f *)alloca(sizeof (struct f));
	p->a = 9;
	printf("%d\n", p->a);
	exit(0);
}
