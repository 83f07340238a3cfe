/* Relational operators yield 0 or 1. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", 1 < 2, 2 <= 2, 3 > 4, 4 >= 5);
	exit(0);
}
