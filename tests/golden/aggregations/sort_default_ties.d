/* By value, then by key for equal values. */
#pragma D option quiet

BEGIN
{
	@a["c"] = sum(1);
	@a["b"] = sum(1);
	@a["a"] = sum(2);
	@a["d"] = sum(0);
	exit(0);
}
