/* strtoll() of a decimal string. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", strtoll("-9876543210"));
	exit(0);
}
