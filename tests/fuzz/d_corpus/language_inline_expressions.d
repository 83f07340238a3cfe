/*
 * An inline may stand for an expression evaluated where it is used. What it
 * names must exist where it is defined: x is declared first.
 */
#pragma D option quiet

int x;
inline int TWICE_X = x * 2;
inline string WHO = execname;

BEGIN
{
	x = 5;
	printf("%d %s\n", TWICE_X, WHO);
	x = 7;
	printf("%d\n", TWICE_X);
	exit(0);
}
