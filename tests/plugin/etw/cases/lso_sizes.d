/*
 * ip_plength is 16 bits, as in DTrace; ip_size is the payload's full size,
 * which an LSO send (11.4 MB here) exceeds 64 KiB by far.
 */
tcpip:::send
/args[0]->ip_size > 65535/
{
	printf("LSO send: ip_plength %d, ip_size %d\n", args[0]->ip_plength, args[0]->ip_size);
}

tcpip:::send
{
	@plength = sum(args[0]->ip_plength);
	@size = sum(args[0]->ip_size);
}

END
{
	printa("sum of ip_plength %@d, of ip_size %@d\n", @plength, @size);
}
