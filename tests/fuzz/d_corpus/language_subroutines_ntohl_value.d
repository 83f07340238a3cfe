/* ntohl() swaps the bytes of a 32-bit value. */
#pragma D option quiet

BEGIN
{
	printf("%x\n", ntohl(0x78563412));
	exit(0);
}
