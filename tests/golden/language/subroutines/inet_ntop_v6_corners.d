/*
 * inet_ntop(AF_INET6) corners, by DTrace's own zero-run rule: "::" for all
 * zeros, a trailing run, a single zero group compressed, the longer run
 * chosen; of two runs of equal length the later one wins when the group
 * after it starts with a zero byte (DTrace counts that byte), the first
 * otherwise; an IPv4-compatible address whose run reaches into the IPv4
 * part prints every group.
 */
#pragma D option quiet

BEGIN
{
	a = (uint8_t *)alloca(16);
	printf("%s\n", inet_ntop(AF_INET6, (void *)a));
}

BEGIN
{
	a = (uint8_t *)alloca(16);
	a[1] = 1;
	printf("%s\n", inet_ntop(AF_INET6, (void *)a));
}

BEGIN
{
	/* 1:0:2:3:4:5:6:7 */
	a = (uint8_t *)alloca(16);
	a[1] = 1; a[5] = 2; a[7] = 3; a[9] = 4; a[11] = 5; a[13] = 6; a[15] = 7;
	printf("%s\n", inet_ntop(AF_INET6, (void *)a));
}

BEGIN
{
	/* 1:0:0:2:0:0:0:3 */
	a = (uint8_t *)alloca(16);
	a[1] = 1; a[7] = 2; a[15] = 3;
	printf("%s\n", inet_ntop(AF_INET6, (void *)a));
}

BEGIN
{
	/* 1:0:0:2:3:0:0:4: the last group's first byte is 0 */
	a = (uint8_t *)alloca(16);
	a[1] = 1; a[7] = 2; a[9] = 3; a[15] = 4;
	printf("%s\n", inet_ntop(AF_INET6, (void *)a));
}

BEGIN
{
	/* 1:0:0:2:3:0:0:400: the last group's first byte is not 0 */
	a = (uint8_t *)alloca(16);
	a[1] = 1; a[7] = 2; a[9] = 3; a[14] = 4;
	printf("%s\n", inet_ntop(AF_INET6, (void *)a));
}

BEGIN
{
	/* ::1.2.3.4 and ::0.0.1.2 (IPv4-compatible) */
	a = (uint8_t *)alloca(16);
	a[12] = 1; a[13] = 2; a[14] = 3; a[15] = 4;
	printf("%s %s\n", inet_ntop(AF_INET6, (void *)a), inet_ntoa6((void *)a));
	a[12] = 0; a[13] = 0; a[14] = 1; a[15] = 2;
	printf("%s %s\n", inet_ntop(AF_INET6, (void *)a), inet_ntoa6((void *)a));
}

BEGIN
{
	/* ::1 is not IPv4-compatible */
	a = (uint8_t *)alloca(16);
	a[15] = 1;
	printf("%s %s\n", inet_ntop(AF_INET6, (void *)a), inet_ntoa6((void *)a));
	exit(0);
}
