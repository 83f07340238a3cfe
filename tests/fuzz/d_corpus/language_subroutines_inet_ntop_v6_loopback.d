/* inet_ntop(AF_INET6) of ::1. */
#pragma D option quiet

BEGIN
{
	a = (uint8_t *)alloca(16);
	a[15] = 1;
	printf("%s\n", inet_ntop(AF_INET6, (void *)a));
	exit(0);
}
