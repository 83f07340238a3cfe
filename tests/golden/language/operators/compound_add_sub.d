/* += and -=. */
#pragma D option quiet

BEGIN
{
	x = 10;
	x += 5;
	printf("%d\n", x);
	x -= 20;
	printf("%d\n", x);
	exit(0);
}
