/* Bitwise complement. */
#pragma D option quiet

BEGIN
{
	printf("%x\n", ~0 & 0xffff);
	exit(0);
}
