/*
 * A global array variable: its elements start at zero, are assigned one by
 * one, and keep their values across clauses; sizeof is the whole array.
 */
#pragma D option quiet

int a[4];

BEGIN
{
	a[1] = 5;
	a[2] = 7;
	a[3]++;
	a[3] += 10;
}

BEGIN
{
	printf("%d %d %d %d sum %d size %d\n", a[0], a[1], a[2], a[3], a[1] + a[2], sizeof (a));
	exit(0);
}
