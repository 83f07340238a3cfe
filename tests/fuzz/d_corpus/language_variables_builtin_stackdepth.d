/* stackdepth is a number (no kernel stack here: 0). */
#pragma D option quiet

BEGIN
{
	printf("%d\n", stackdepth >= 0);
	exit(0);
}
