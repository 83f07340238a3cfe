/* errno is 0 when nothing failed. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", errno);
	exit(0);
}
