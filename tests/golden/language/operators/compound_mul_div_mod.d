/* *=, /= and %=. */
#pragma D option quiet

BEGIN
{
	x = 10;
	x *= 3;
	printf("%d\n", x);
	x /= 4;
	printf("%d\n", x);
	x %= 4;
	printf("%d\n", x);
	exit(0);
}
