/* An aggregation printa() printed is not printed again at exit. */
#pragma D option quiet

BEGIN
{
	@printed = count();
	@unprinted = sum(7);
	printa(@printed);
	exit(0);
}
