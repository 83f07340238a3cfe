/* Inline constants are named values of the declared type. */
#pragma D option quiet

inline int ANSWER = 42;
inline string GREETING = "hello";
inline int DOUBLE = ANSWER * 2;
inline char SMALL = 300;

BEGIN
{
	printf("%d %s %d %d\n", ANSWER, GREETING, DOUBLE, SMALL);
	printf("%d\n", sizeof (SMALL));
	exit(0);
}
