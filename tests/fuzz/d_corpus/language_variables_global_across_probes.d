/* A global keeps its value from one probe to another. */
#pragma D option quiet

BEGIN
{
	x = 1;
}

tick-1ms
{
	x++;
}

tick-1ms
/x == 4/
{
	printf("%d\n", x);
	exit(0);
}
