/* sizeof (int) is 4. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", sizeof (int));
	exit(0);
}
