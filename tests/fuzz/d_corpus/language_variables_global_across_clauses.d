/* A global keeps its value from one clause to the next. */
#pragma D option quiet

BEGIN
{
	x = 41;
}

BEGIN
{
	printf("%d\n", x + 1);
	exit(0);
}
