/* %Lf wants a long double exactly. */
double d;

BEGIN
{
	printf("%Lf\n", d);
}
