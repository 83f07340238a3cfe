/* #if evaluates an expression. */
#pragma D option quiet

#define LEVEL 3

BEGIN
{
#if LEVEL > 2
	printf("high\n");
#else
	printf("low\n");
#endif
	exit(0);
}
