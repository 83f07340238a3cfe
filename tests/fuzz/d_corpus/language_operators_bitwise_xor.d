/* Bitwise exclusive or. */
#pragma D option quiet

BEGIN
{
	printf("%x\n", 0xff ^ 0x0f);
	exit(0);
}
