/* A negative int widened to int64_t keeps its sign. */
#pragma D option quiet

BEGIN
{
	x = (int)-5;
	printf("%d\n", (int64_t)x);
	exit(0);
}
