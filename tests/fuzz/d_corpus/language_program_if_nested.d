/* Nested if statements. */
#pragma D option quiet

BEGIN
{
	x = 1;
	y = 0;
	if (x) {
		if (y)
			printf("x and y\n");
		else
			printf("x only\n");
	}
	exit(0);
}
