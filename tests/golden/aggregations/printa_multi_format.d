#pragma D option quiet

BEGIN
{
	@calls["read"] = count();
	@calls["write"] = count();
	@calls["write"] = count();
	@bytes["read"] = sum(100);
	@bytes["write"] = sum(300);
	printa("%-6s %@3d calls %@5d bytes\n", @calls, @bytes);
	exit(0);
}
