/* Unary minus. */
#pragma D option quiet

BEGIN
{
	x = 5;
	printf("%d %d\n", -x, - -x);
	exit(0);
}
