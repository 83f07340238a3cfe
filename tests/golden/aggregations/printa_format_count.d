#pragma D option quiet

BEGIN
{
	@a["read"] = count();
	@a["write"] = count();
	@a["write"] = count();
	printa("%-8s %@5d\n", @a);
	exit(0);
}
