/* ntohs() is the inverse of htons(). */
#pragma D option quiet

BEGIN
{
	printf("%x\n", ntohs(htons(0xabcd)));
	exit(0);
}
