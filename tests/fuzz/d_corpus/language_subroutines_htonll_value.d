/* htonll() swaps the bytes of a 64-bit value. */
#pragma D option quiet

BEGIN
{
	printf("%x\n", htonll(0x0102030405060708));
	exit(0);
}
