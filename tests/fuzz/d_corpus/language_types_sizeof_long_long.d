/* sizeof (long long) is 8. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", sizeof (long long));
	exit(0);
}
