/* An inline takes its declared type: a char inline wraps. */
#pragma D option quiet

inline char C = 300;

BEGIN
{
	printf("%d %d\n", C, sizeof (C));
	exit(0);
}
