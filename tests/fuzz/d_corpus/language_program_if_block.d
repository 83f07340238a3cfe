/* if with a block of statements. */
#pragma D option quiet

BEGIN
{
	if (1) {
		a = 1;
		b = 2;
		printf("%d\n", a + b);
	}
	exit(0);
}
