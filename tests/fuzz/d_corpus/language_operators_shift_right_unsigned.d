/* Right shift of an unsigned value fills with zeros. */
#pragma D option quiet

BEGIN
{
	x = (uint64_t)-16;
	printf("%x\n", x >> 60);
	exit(0);
}
