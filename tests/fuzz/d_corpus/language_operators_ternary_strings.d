/* ?: with string operands yields a string. */
#pragma D option quiet

BEGIN
{
	x = 1;
	s = x ? "yes" : "no";
	printf("%s\n", s);
	exit(0);
}
