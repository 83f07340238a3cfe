/* An inline is not assignable. */
inline int X = 1;

BEGIN
{
	X = 2;
}
