/* trunc() walks entries in the sort order, which aggsortrev reverses. */
#pragma D option quiet
#pragma D option aggsortrev

BEGIN
{
	@a["one"] = sum(1);
	@a["five"] = sum(5);
	@a["three"] = sum(3);
	trunc(@a, 1);
	exit(0);
}
