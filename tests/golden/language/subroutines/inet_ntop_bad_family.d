/* inet_ntop() of a family other than AF_INET and AF_INET6 is an illegal operation. */
#pragma D option quiet

BEGIN
{
	a = (uint8_t *)alloca(16);
	printf("%s\n", inet_ntop(99, (void *)a));
}

BEGIN
{
	exit(0);
}
