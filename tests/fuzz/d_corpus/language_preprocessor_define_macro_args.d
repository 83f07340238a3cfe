/* A function-like macro. */
#pragma D option quiet

#define SQUARE(x) ((x) * (x))

BEGIN
{
	printf("%d\n", SQUARE(7));
	exit(0);
}
