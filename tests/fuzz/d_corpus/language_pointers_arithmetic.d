/*
 * Pointer arithmetic scales by the size of what the pointer points at.
 * DTrace divides a pointer difference unsigned, so a negative difference
 * is a huge positive number (p - q < 0 is false).
 */
#pragma D option quiet

BEGIN
{
	p = (int *)0x1000;
	q = (int *)0x1010;
	c = (char *)0x1000;
	l = (long *)0x1000;
	printf("%p %p %p\n", p + 1, c + 1, l + 1);
	printf("%p %p\n", p - 2, 3 + p);
	printf("%d %d\n", q - p, p - q < 0);
	p++;
	printf("%p\n", p);
	p += 2;
	printf("%p\n", p);
	exit(0);
}
