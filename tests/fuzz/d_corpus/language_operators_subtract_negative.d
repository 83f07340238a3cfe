/* Subtraction may go negative. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", 2 - 40);
	exit(0);
}
