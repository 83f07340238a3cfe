/* curthread is a pointer. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", sizeof (curthread));
	exit(0);
}
