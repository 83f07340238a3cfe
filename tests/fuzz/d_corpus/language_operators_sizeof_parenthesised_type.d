/* sizeof needs parentheses around a type. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", sizeof (uint16_t) * 2);
	exit(0);
}
