/* Pointer decrement steps back one element. */
#pragma D option quiet

BEGIN
{
	p = (short *)0x100;
	p--;
	printf("%p\n", p);
	exit(0);
}
