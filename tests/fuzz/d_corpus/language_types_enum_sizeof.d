/* An enum is the size of an int. */
#pragma D option quiet

enum e { X };

BEGIN
{
	printf("%d\n", sizeof (enum e));
	exit(0);
}
