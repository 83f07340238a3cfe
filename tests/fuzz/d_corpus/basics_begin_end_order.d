#pragma D option quiet

END
{
	printf("end %s\n", probename);
}

BEGIN
{
	printf("begin %s\n", probename);
	exit(0);
}

BEGIN
{
	printf("not reached: exit() stops later BEGIN clauses\n");
}
