/* No floating-point arithmetic. */
double d;

BEGIN
{
	trace(d + 1);
}
