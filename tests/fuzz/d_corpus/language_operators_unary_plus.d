/* Unary plus. */
#pragma D option quiet

BEGIN
{
	x = 5;
	printf("%d\n", +x);
	exit(0);
}
