/* Assignment operators and increments. */
#pragma D option quiet

BEGIN
{
	x = 10;
	x += 5;
	printf("%d ", x);
	x -= 3;
	printf("%d ", x);
	x *= 2;
	printf("%d ", x);
	x /= 5;
	printf("%d ", x);
	x %= 3;
	printf("%d ", x);
	x <<= 4;
	printf("%d ", x);
	x >>= 1;
	printf("%d ", x);
	x |= 1;
	printf("%d ", x);
	x &= 6;
	printf("%d ", x);
	x ^= 15;
	printf("%d\n", x);
	y = 1;
	printf("%d %d %d %d %d\n", y++, y, ++y, y--, --y);
	z = (a = 3) + 1;
	printf("%d %d\n", a, z);
	exit(0);
}
