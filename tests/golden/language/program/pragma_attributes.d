/*
 * #pragma D attributes and binding are accepted for the variables, inlines
 * and enumerators the program declares after them (or before them).
 */
#pragma D option quiet

#pragma D attributes Evolving/Evolving/Common x
#pragma D binding "1.0" y
#pragma D attributes stable/EVOLVING/isa ONE
inline int y = 2;
enum numbers { ONE = 1 };
int x;
#pragma D binding "1.2.3" x

BEGIN
{
	x = 1;
	printf("%d %d %d\n", x, y, ONE);
	exit(0);
}
