/* A global first assigned an int is an int for good. */
#pragma D option quiet

BEGIN
{
	x = 3;
	x = x * 2;
	printf("%d %d\n", x, sizeof (x));
	exit(0);
}
