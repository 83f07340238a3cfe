/*
 * An index known only at run time that is outside the array faults: the
 * clause is aborted as for any invalid address, and ERROR fires.
 */
#pragma D option quiet

int a[4];

BEGIN
{
	i = 9;
	a[i] = 1;
	printf("not reached\n");
}

BEGIN
{
	i = -1;
	trace(a[i]);
}

ERROR
{
	printf("ERROR: %s\n", arg4 == 1 ? "invalid address" : "other");
}

BEGIN
{
	printf("a[3] is still %d\n", a[3]);
	exit(0);
}
