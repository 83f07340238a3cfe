/* struct in_addr is in the library types. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", sizeof (struct in_addr), sizeof (ipaddr_t));
	exit(0);
}
