/* A char pointer reads single bytes. */
#pragma D option quiet

BEGIN
{
	p = (int *)alloca(4);
	*p = 0x44434241;
	c = (char *)p;
	printf("%c%c%c%c\n", c[0], c[1], c[2], c[3]);
	exit(0);
}
