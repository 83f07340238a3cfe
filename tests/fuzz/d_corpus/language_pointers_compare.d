/* Pointers compare as unsigned addresses; NULL is 0. */
#pragma D option quiet

BEGIN
{
	p = (char *)0x1000;
	q = (char *)0x2000;
	printf("%d %d %d %d\n", p < q, p == q, p != q, q >= p);
	printf("%d %d\n", p != NULL, (char *)0 == NULL);
	v = (void *)p;
	printf("%d\n", v == p);
	exit(0);
}
