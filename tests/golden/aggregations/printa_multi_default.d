#pragma D option quiet

BEGIN
{
	@calls["read"] = count();
	@calls["write"] = count();
	@bytes["read"] = sum(100);
	@bytes["write"] = sum(300);
	printa(@calls, @bytes);
	exit(0);
}
