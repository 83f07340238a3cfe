/* %Y is a date as adb prints it; %T the same time in RFC 822 form. */
#pragma D option quiet

BEGIN
{
	t = (uint64_t)1000000000 * 86400 * 365;
	printf("[%Y]\n", t);
	printf("[%T]\n", t);
	exit(0);
}
