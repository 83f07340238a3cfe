/* #pragma D attributes is accepted. */
#pragma D option quiet

#pragma D attributes Evolving/Evolving/Common x

BEGIN
{
	x = 1;
	printf("%d\n", x);
	exit(0);
}
