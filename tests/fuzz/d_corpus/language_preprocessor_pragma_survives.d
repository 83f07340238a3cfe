/* #pragma D lines pass through cpp. */
#pragma D option quiet

#pragma D option quiet

BEGIN
{
	printf("quiet\n");
	exit(0);
}
