/* Division by a zero variable is a run-time fault: the clause stops, the next one runs. */
#pragma D option quiet

BEGIN
{
	x = 0;
	y = 1 / x;
	printf("not reached\n");
}

BEGIN
{
	exit(0);
}
