/* An inline string constant. */
#pragma D option quiet

inline string GREETING = "hello";

BEGIN
{
	printf("%s\n", GREETING);
	exit(0);
}
