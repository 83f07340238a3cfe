/* printa() of an aggregation with no entries prints just the newline. */
#pragma D option quiet

BEGIN
/0/
{
	@never = count();
}

BEGIN
{
	printa(@never);
	printf("end\n");
	exit(0);
}
