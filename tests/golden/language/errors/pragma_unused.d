/* A #pragma D attributes naming an identifier the program never declares. */
void func(int, int);

#pragma D option quiet
#pragma D attributes Stable/Stable/Common func;

BEGIN
{
	exit(0);
}
