/* $1 passes through cpp as a D macro argument. */
#pragma D option quiet

#define TWICE(x) ((x) * 2)

BEGIN
{
	printf("%d\n", TWICE($1));
	exit(0);
}
