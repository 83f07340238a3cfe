/*
 * Declared float, double and long double variables (global, thread-local,
 * clause-local) read as zero; printf's floating-point conversions format them.
 */
#pragma D option quiet

float f;
double d;
long double ld;
self double sd;

BEGIN
{
	printf("%e %E %f %g %G\n", f, f, f, f, f);
	printf("%e %E %f %g %G\n", d, d, d, d, d);
	printf("%Le %LE %Lf %Lg %LG\n", ld, ld, ld, ld, ld);
	printf("[%8.2f] [%-8.1e] [%+g] [% G]\n", self->sd, d, f, d);
	printf("%d %d %d\n", sizeof (f), sizeof (d), sizeof (ld));
	exit(0);
}
