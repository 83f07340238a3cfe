/* Enumerators may be negative. */
#pragma D option quiet

enum e { NEG = -3, NEXT };

BEGIN
{
	printf("%d %d\n", NEG, NEXT);
	exit(0);
}
