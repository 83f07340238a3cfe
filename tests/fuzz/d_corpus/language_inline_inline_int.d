/* An inline integer constant. */
#pragma D option quiet

inline int LIMIT = 10;

BEGIN
{
	printf("%d\n", LIMIT * 2);
	exit(0);
}
