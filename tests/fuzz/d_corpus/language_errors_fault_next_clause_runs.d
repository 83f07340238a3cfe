/* After a fault, later clauses of the same firing still run. */
#pragma D option quiet

BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	printf("second clause\n");
	exit(0);
}
