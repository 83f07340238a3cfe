/* struct in6_addr is 16 bytes. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", sizeof (struct in6_addr));
	exit(0);
}
