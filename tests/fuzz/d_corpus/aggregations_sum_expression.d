#pragma D option quiet

BEGIN
{
	i = 0;
}

tick-1ms
/i < 50/
{
	@s["even"] = sum(i % 2 == 0 ? i : 0);
	@s["odd"] = sum(i % 2 == 1 ? i : 0);
	@c[i % 3] = count();
	i++;
}

tick-1ms
/i == 50/
{
	exit(0);
}
