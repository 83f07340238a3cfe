/* inet_ntoa6() formats a struct in6_addr. */
#pragma D option quiet

BEGIN
{
	a = (struct in6_addr *)alloca(sizeof (struct in6_addr));
	b = (uint8_t *)a;
	b[0] = 0x20;
	b[1] = 0x01;
	b[2] = 0x0d;
	b[3] = 0xb8;
	b[15] = 5;
	printf("%s\n", inet_ntoa6(a));
	exit(0);
}
