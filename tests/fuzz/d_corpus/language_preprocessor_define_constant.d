/* #define makes a constant. */
#pragma D option quiet

#define ANSWER 42

BEGIN
{
	printf("%d\n", ANSWER);
	exit(0);
}
