/* A string is strsize bytes. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", sizeof (string));
	exit(0);
}
