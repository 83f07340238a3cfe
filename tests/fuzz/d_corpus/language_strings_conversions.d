/* lltostr(), strtoll(), toupper() and tolower(). */
#pragma D option quiet

BEGIN
{
	printf("%s %s %s\n", lltostr(12345), lltostr(-42), lltostr(0));
	printf("%d %d %d\n", strtoll("123"), strtoll("-77"), strtoll("ff", 16));
	printf("%d %d\n", strtoll("0x1f", 16), strtoll("777", 8));
	printf("%s %s\n", toupper("MixedCase 123"), tolower("MixedCase 123"));
	exit(0);
}
