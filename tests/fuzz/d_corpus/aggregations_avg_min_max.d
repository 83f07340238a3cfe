#pragma D option quiet

BEGIN
{
	@avg = avg(10);
	@avg = avg(20);
	@avg = avg(40);
	@min = min(5);
	@min = min(-2);
	@max = max(5);
	@max = max(99);
	@sd = stddev(2);
	@sd = stddev(4);
	@sd = stddev(4);
	@sd = stddev(4);
	@sd = stddev(5);
	@sd = stddev(5);
	@sd = stddev(7);
	@sd = stddev(9);
	exit(0);
}
