/* An aggregation named as a statement does nothing. */
BEGIN
{
	@a = count();
	@a;
}
