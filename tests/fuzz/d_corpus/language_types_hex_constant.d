/* Hexadecimal constants. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", 0x10, 0XfF);
	exit(0);
}
