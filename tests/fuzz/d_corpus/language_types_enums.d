/* Enumerations: values count on from the last one given. */
#pragma D option quiet

enum color { RED, GREEN = 5, BLUE, ALPHA = -2, BETA };

BEGIN
{
	printf("%d %d %d %d %d\n", RED, GREEN, BLUE, ALPHA, BETA);
	printf("%d\n", sizeof (enum color));
	c = BLUE;
	printf("%d %d\n", c == BLUE, c > GREEN);
	exit(0);
}
