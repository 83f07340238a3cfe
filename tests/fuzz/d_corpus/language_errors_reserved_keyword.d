/* counter is one of D's reserved keywords: a syntax error as a name. */
int counter;

BEGIN
{
	exit(0);
}
