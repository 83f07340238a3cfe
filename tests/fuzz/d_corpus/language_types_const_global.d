/* A const-qualified declaration. */
#pragma D option quiet

const int c;

BEGIN
{
	printf("%d\n", sizeof (c));
	exit(0);
}
