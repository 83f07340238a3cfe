/* Clauses for one probe run in program order. */
#pragma D option quiet

BEGIN
{
	printf("1\n");
}

BEGIN
{
	printf("2\n");
}

BEGIN
{
	printf("3\n");
	exit(0);
}
