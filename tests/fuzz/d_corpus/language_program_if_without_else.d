/* if without else. */
#pragma D option quiet

BEGIN
{
	x = 3;
	if (x > 2)
		printf("big\n");
	exit(0);
}
