/* inet_ntoa() formats an ipaddr_t in network order. */
#pragma D option quiet

BEGIN
{
	a = (ipaddr_t *)alloca(sizeof (ipaddr_t));
	*a = htonl(0xc0a80001);
	printf("%s\n", inet_ntoa(a));
	exit(0);
}
