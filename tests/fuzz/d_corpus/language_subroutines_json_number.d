/* json() of a number member gives its text. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", json("{\"n\": -12.5e3}", "n"));
	exit(0);
}
