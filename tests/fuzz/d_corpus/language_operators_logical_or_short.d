/* || does not evaluate its right side when the left is true. */
#pragma D option quiet

BEGIN
{
	x = 0;
	y = (x == 0) || (10 / x > 1);
	printf("%d\n", y);
	exit(0);
}
