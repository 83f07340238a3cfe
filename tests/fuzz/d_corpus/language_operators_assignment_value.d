/* An assignment is an expression with the assigned value. */
#pragma D option quiet

BEGIN
{
	x = y = 7;
	printf("%d %d\n", x, y);
	exit(0);
}
