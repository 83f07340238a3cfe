#pragma D option quiet

BEGIN
{
	@bytes["read"] = sum(4096);
	@bytes["write"] = sum(10240);
	normalize(@bytes, 1024);
	printa("%s %@d KB\n", @bytes);
	exit(0);
}
