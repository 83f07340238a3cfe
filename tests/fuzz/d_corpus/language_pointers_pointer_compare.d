/* Pointers compare by address. */
#pragma D option quiet

BEGIN
{
	p = (int *)0x100;
	q = (int *)0x200;
	printf("%d %d %d\n", p < q, p == q, q > p);
	exit(0);
}
