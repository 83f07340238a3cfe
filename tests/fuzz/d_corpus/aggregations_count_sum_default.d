/* Aggregations print at exit, each sorted by value, ties by key. */
BEGIN
{
	@counts["read"] = count();
	@counts["write"] = count();
	@counts["write"] = count();
	@counts["open"] = count();
	@counts["open"] = count();
	@counts["open"] = count();
	@bytes["read"] = sum(100);
	@bytes["write"] = sum(20);
	@bytes["write"] = sum(30);
	exit(0);
}
