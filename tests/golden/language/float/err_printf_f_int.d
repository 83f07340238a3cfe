/* %f wants a float, double or long double. */
BEGIN
{
	printf("%f\n", 1);
}
