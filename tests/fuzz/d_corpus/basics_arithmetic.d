#pragma D option quiet

BEGIN
{
	x = 10;
	y = 3;
	printf("%d %d %d %d %d\n", x + y, x - y, x * y, x / y, x % y);
	printf("%d %d %d\n", x << 2, x >> 1, -x >> 1);
	printf("%d %d %d %d\n", x & y, x | y, x ^ y, ~x);
	printf("%d %d %d\n", 1 + 2 * 3, (1 + 2) * 3, 10 - 4 - 3);
	printf("%d %d %d %d\n", x > y, x < y, x == 10, x != 10);
	printf("%d %d %d\n", x && 0, x || 0, !x);
	printf("%d %d\n", x > y ? 100 : 200, x < y ? 100 : 200);
	printf("%u %d\n", (unsigned)-1, (char)300);
	exit(0);
}
