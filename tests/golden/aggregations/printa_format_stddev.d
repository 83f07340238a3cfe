#pragma D option quiet

BEGIN
{
	@sd = stddev(10);
	@sd = stddev(20);
	@sd = stddev(30);
	printa("stddev %@d\n", @sd);
	exit(0);
}
