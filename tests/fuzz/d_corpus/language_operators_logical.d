/* Logical operators give 0 or 1; && and || short-circuit, ^^ never does. */
#pragma D option quiet

BEGIN
{
	x = 0;
	printf("%d %d %d %d\n", 2 && 3, 0 || 0, 1 ^^ 1, 1 ^^ 0);
	printf("%d %d\n", !5, !0);
	n = 0;
	r = x && n++;
	r = x || n++;
	r = x ^^ n++;
	printf("%d\n", n);
	exit(0);
}
