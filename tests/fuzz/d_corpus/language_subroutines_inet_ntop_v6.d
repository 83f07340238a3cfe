/* inet_ntop(AF_INET6) formats a struct in6_addr, compressing zeros. */
#pragma D option quiet

BEGIN
{
	a = (uint8_t *)alloca(16);
	a[0] = 0xfe;
	a[1] = 0x80;
	a[15] = 1;
	printf("%s\n", inet_ntop(AF_INET6, (void *)a));
	exit(0);
}
