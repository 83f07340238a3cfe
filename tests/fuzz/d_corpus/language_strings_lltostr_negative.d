/* lltostr() of negative numbers. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", lltostr(-1234567890123));
	exit(0);
}
