/* An inline in a predicate. */
#pragma D option quiet

inline int ENABLED = 1;

BEGIN
/ENABLED/
{
	printf("on\n");
	exit(0);
}
