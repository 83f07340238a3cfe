/* An aggregation used with different keys. */
BEGIN
{
	@a[1] = count();
	@a["x"] = count();
}
