/* Arithmetic operators: signed division truncates toward zero. */
#pragma D option quiet

BEGIN
{
	a = 7;
	b = -7;
	printf("%d %d %d %d %d\n", a + 2, a - 10, a * 3, a / 2, a % 3);
	printf("%d %d %d %d\n", b / 2, b % 2, b / -2, -b);
	printf("%d %d\n", 10 / 3 * 3, 10 - 4 - 3);
	printf("%u\n", 0U - 1);
	exit(0);
}
