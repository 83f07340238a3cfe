/* if/else with aggregations. */
#pragma D option quiet

BEGIN
{
	i = 0;
}

tick-1ms
/i < 10/
{
	if (i % 3 == 0)
		@["three"] = count();
	else
		@["other"] = count();
	i++;
}

tick-1ms
/i == 10/
{
	exit(0);
}
