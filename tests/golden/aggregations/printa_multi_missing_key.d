/* A key one aggregation lacks prints as zero for it. */
#pragma D option quiet

BEGIN
{
	@a["both"] = sum(1);
	@b["both"] = sum(2);
	@a["only a"] = sum(3);
	@b["only b"] = sum(4);
	printa("%-8s %@d %@d\n", @a, @b);
	exit(0);
}
