/* ntohll() swaps the bytes of a 64-bit value. */
#pragma D option quiet

BEGIN
{
	printf("%x\n", ntohll(0x0807060504030201));
	exit(0);
}
