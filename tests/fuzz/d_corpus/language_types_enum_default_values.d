/* Enumerators count up from 0. */
#pragma D option quiet

enum colour { RED, GREEN, BLUE };

BEGIN
{
	printf("%d %d %d\n", RED, GREEN, BLUE);
	exit(0);
}
