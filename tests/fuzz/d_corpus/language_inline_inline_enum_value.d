/* An inline of an enum type. */
#pragma D option quiet

enum state { IDLE, BUSY };
inline enum state CURRENT = BUSY;

BEGIN
{
	printf("%d\n", CURRENT);
	exit(0);
}
