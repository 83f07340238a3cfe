/* %p prints a pointer in hexadecimal. */
#pragma D option quiet

BEGIN
{
	printf("%p\n", (void *)0xdeadbeef);
	exit(0);
}
