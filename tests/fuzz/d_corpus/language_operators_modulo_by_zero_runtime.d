/* Remainder by a zero variable is a run-time fault. */
#pragma D option quiet

BEGIN
{
	x = 0;
	y = 1 % x;
}

BEGIN
{
	exit(0);
}
