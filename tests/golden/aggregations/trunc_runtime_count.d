/* The count is any scalar expression, evaluated when the probe fires. */
#pragma D option quiet

BEGIN
{
	n = 1;
	@a[1] = sum(10);
	@a[2] = sum(20);
	@a[3] = sum(30);
	trunc(@a, n + 1);
	printa("%d %@d\n", @a);
	exit(0);
}
