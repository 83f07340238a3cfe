/* & of an element of scratch memory is its address. */
#pragma D option quiet

BEGIN
{
	p = (int *)alloca(8);
	printf("%d\n", &p[1] == p + 1);
	exit(0);
}
