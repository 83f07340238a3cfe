/* Integer casts narrow, widen and change signedness. */
#pragma D option quiet

BEGIN
{
	x = 300;
	y = -1;
	printf("%d %d %d\n", (char)x, (unsigned char)y, (short)70000);
	printf("%d %u\n", (int)0x1ffffffffLL, (unsigned int)y);
	printf("%d %d\n", (char)y, (int)(unsigned char)y);
	printf("%lld\n", (long long)(unsigned int)y);
	printf("%lld\n", (long long)(int)y);
	exit(0);
}
