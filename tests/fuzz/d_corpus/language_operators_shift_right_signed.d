/* Right shift of a signed value is arithmetic. */
#pragma D option quiet

BEGIN
{
	x = -16;
	printf("%d\n", x >> 2);
	exit(0);
}
