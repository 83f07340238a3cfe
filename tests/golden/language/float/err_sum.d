/* An aggregating function takes a scalar. */
double d;

BEGIN
{
	@ = sum(d);
}
