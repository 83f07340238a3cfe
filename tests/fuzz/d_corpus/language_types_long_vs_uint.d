/* long and unsigned int: the long wins, -1 stays negative. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", (long)-1 < (unsigned int)1);
	exit(0);
}
