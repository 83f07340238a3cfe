/* sizeof (char) is 1. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", sizeof (char));
	exit(0);
}
