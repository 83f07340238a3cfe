/* htonl() swaps the bytes of a 32-bit value. */
#pragma D option quiet

BEGIN
{
	printf("%x\n", htonl(0x12345678));
	exit(0);
}
