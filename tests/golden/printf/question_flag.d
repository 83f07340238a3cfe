/* The ? flag pads to the width of a pointer in hex (16 columns). */
#pragma D option quiet

BEGIN
{
	printf("[%?x][%?p][%-?d]\n", 0x1234, (void *)0x10, 5);
	exit(0);
}
