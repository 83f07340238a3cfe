/* sizeof of an expression is the size of its type, not evaluated. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", sizeof (1 + 1), sizeof ((char)1));
	exit(0);
}
