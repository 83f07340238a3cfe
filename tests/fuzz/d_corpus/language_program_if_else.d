/* if/else in a clause body, nested and chained. */
#pragma D option quiet

BEGIN
{
	x = 15;
	if (x < 10) {
		printf("small\n");
	} else if (x < 20) {
		printf("medium\n");
		if (x % 2)
			printf("odd\n");
		else
			printf("even\n");
	} else {
		printf("large\n");
	}
	printf("after\n");
	exit(0);
}
