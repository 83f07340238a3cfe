/* inet_ntop(AF_INET6) of an IPv4-mapped address. */
#pragma D option quiet

BEGIN
{
	a = (uint8_t *)alloca(16);
	a[10] = 0xff;
	a[11] = 0xff;
	a[12] = 10;
	a[15] = 1;
	printf("%s\n", inet_ntop(AF_INET6, (void *)a));
	exit(0);
}
