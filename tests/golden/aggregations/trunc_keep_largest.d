#pragma D option quiet

BEGIN
{
	@a["one"] = sum(1);
	@a["five"] = sum(5);
	@a["three"] = sum(3);
	@a["four"] = sum(4);
	trunc(@a, 2);
	exit(0);
}
