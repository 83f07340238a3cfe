/* An associative array keyed by a tuple. */
#pragma D option quiet

BEGIN
{
	a[1, "one"] = 11;
	a[2, "two"] = 22;
	printf("%d %d %d\n", a[1, "one"], a[2, "two"], a[1, "two"]);
	exit(0);
}
