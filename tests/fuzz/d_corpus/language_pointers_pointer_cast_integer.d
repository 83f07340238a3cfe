/* A pointer cast to an integer keeps the address. */
#pragma D option quiet

BEGIN
{
	p = (char *)0x1234;
	printf("%x\n", (uintptr_t)p);
	exit(0);
}
