/* A pointer to a pointer. */
#pragma D option quiet

BEGIN
{
	p = (int *)alloca(4);
	*p = 9;
	pp = (int **)alloca(8);
	*pp = p;
	printf("%d\n", **pp);
	exit(0);
}
