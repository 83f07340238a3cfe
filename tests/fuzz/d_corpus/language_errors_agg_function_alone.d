/* An aggregating function outside an aggregation. */
BEGIN
{
	x = count();
}
