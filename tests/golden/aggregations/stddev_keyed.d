#pragma D option quiet

BEGIN
{
	@sd["flat"] = stddev(5);
	@sd["flat"] = stddev(5);
	@sd["spread"] = stddev(0);
	@sd["spread"] = stddev(100);
	exit(0);
}
