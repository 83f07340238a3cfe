/* htons() swaps the bytes of a 16-bit value (little-endian host). */
#pragma D option quiet

BEGIN
{
	printf("%x\n", htons(0x1234));
	exit(0);
}
