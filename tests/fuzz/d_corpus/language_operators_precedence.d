/* Operator precedence and associativity, as in C. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", 1 + 2 * 3, (1 + 2) * 3, 2 * 3 % 4);
	printf("%d %d\n", 1 << 2 + 1, 1 | 2 & 3);
	printf("%d %d\n", 1 < 2 == 1, 3 - 2 - 1);
	printf("%d\n", -2 * -3);
	printf("%d %d\n", 1 || 0 && 0, (1 || 0) && 0);
	x = 1, y = 2;
	printf("%d %d\n", x, (x, y));
	exit(0);
}
