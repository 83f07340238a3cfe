#pragma D option quiet

BEGIN
{
	@total = count();
	@total = count();
	@amount = sum(-5);
	exit(0);
}
