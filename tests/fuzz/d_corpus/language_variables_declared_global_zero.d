/* A declared global starts at 0. */
#pragma D option quiet

int total;

BEGIN
{
	printf("%d\n", total);
	exit(0);
}
