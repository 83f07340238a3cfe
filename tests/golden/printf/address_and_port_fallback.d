/*
 * %I prints the host name of an address and %P the service name of a port;
 * text that is not an address, and a port with no service, print as they
 * are, in the conversion's width.
 */
#pragma D option quiet

BEGIN
{
	printf("[%I][%-16I|][%P][%5P][%-5P|]\n", "not-an-address", "x", (uint16_t)0, (uint16_t)0, (uint16_t)0);
	exit(0);
}
