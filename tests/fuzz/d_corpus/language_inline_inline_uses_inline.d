/* An inline defined with another inline. */
#pragma D option quiet

inline int A = 3;
inline int B = A * A;

BEGIN
{
	printf("%d\n", B);
	exit(0);
}
