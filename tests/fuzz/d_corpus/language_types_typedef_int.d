/* A typedef names an integer type. */
#pragma D option quiet

typedef int myint_t;
myint_t x;

BEGIN
{
	x = 7;
	printf("%d %d\n", x, sizeof (myint_t));
	exit(0);
}
