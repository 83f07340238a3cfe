/* The difference of two pointers counts elements. */
#pragma D option quiet

BEGIN
{
	p = (long *)0x100;
	q = (long *)0x140;
	printf("%d\n", q - p);
	exit(0);
}
