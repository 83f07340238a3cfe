/* inet_ntop(AF_INET) formats a struct in_addr. */
#pragma D option quiet

BEGIN
{
	a = (struct in_addr *)alloca(sizeof (struct in_addr));
	a->s_addr = htonl(0x7f000001);
	printf("%s\n", inet_ntop(AF_INET, (void *)a));
	exit(0);
}
