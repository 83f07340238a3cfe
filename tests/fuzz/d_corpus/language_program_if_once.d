/*
 * The test of an if is evaluated once, before the statements it guards:
 * changing what it tested inside the then branch does not run the else.
 */
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
	if (x++ == 1)
		printf("tested once: %d\n", x);
	exit(0);
}
