/* #pragma D binding is accepted. */
#pragma D option quiet

#pragma D binding "1.0" foo
inline int foo = 2;

BEGIN
{
	printf("%d\n", foo);
	exit(0);
}
