/* ++ needs a scalar. */
float f;

BEGIN
{
	f++;
}
