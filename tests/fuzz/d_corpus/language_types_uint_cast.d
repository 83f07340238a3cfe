/* A cast to uint32_t zero-extends. */
#pragma D option quiet

BEGIN
{
	printf("%u\n", (uint32_t)-1);
	exit(0);
}
