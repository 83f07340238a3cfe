/* tid is a positive thread id. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", tid > 0);
	exit(0);
}
