/* sizeof applies to an expression of a variable's type. */
#pragma D option quiet

BEGIN
{
	x = (short)1;
	printf("%d\n", sizeof (x));
	exit(0);
}
