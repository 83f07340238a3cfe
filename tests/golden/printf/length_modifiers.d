#pragma D option quiet

BEGIN
{
	printf("%hd %hu %hx\n", (short)-2, (unsigned short)65535, (short)-1);
	printf("%ld %lu %lx\n", (long)-3, (unsigned long)4000000000, (long)255);
	printf("%lld %llu %llx\n", (long long)-4, (unsigned long long)-1, (long long)4096);
	exit(0);
}
