/* The condition is evaluated once, before either branch runs. */
#pragma D option quiet

BEGIN
{
	x = 0;
	if (x == 0) {
		x = 1;
		printf("then\n");
	} else {
		printf("else\n");
	}
	exit(0);
}
