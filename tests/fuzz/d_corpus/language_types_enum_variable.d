/* A variable of an enum type holds an enumerator. */
#pragma D option quiet

enum e { ONE = 1, TWO };
enum e v;

BEGIN
{
	v = TWO;
	printf("%d %d\n", v, v == TWO);
	exit(0);
}
