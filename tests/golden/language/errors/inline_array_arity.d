/* An inline array takes as many index values as it has parameters. */
inline int add[int a, int b] = a + b;

BEGIN
{
	trace(add[1]);
}
