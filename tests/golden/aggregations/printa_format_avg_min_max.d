#pragma D option quiet

BEGIN
{
	@avg = avg(10);
	@avg = avg(21);
	@min = min(-4);
	@max = max(17);
	printa("avg %@d\n", @avg);
	printa("min %@d\n", @min);
	printa("max %@u\n", @max);
	exit(0);
}
