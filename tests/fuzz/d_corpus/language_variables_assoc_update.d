/* An element can be updated in place. */
#pragma D option quiet

BEGIN
{
	a["k"] = 1;
	a["k"] += 5;
	a["k"]++;
	printf("%d\n", a["k"]);
	exit(0);
}
