/* volatile in a cast changes nothing. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", (volatile int)42);
	exit(0);
}
