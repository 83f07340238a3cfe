/* A void pointer steps by bytes. */
#pragma D option quiet

BEGIN
{
	p = (void *)0x100;
	printf("%p\n", p + 3);
	exit(0);
}
