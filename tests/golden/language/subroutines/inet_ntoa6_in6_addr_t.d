/*
 * inet_ntoa6() takes an in6_addr_t *, as DTrace documents it: the type is
 * the struct in6_addr of the standard library.
 */
#pragma D option quiet

BEGIN
{
	a = (in6_addr_t *)alloca(sizeof (in6_addr_t));
	a->s6_addr[0] = 0xfe;
	a->s6_addr[1] = 0x80;
	a->s6_addr[15] = 1;
	printf("%d %s\n", sizeof (in6_addr_t), inet_ntoa6(a));
	exit(0);
}
