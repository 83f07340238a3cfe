/* print() of an aggregation: DTrace suggests printa(). */
BEGIN
{
	@a = count();
	print(@a);
}
