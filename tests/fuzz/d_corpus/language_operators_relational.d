/* Relational operators, signed and unsigned. */
#pragma D option quiet

BEGIN
{
	x = -1;
	printf("%d %d %d %d %d %d\n", 1 < 2, 2 <= 2, 3 > 4, 4 >= 5, 5 == 5, 5 != 5);
	printf("%d %d %d\n", x < 1, x < 1U, x < 1UL);
	exit(0);
}
