#pragma D option quiet

BEGIN
{
	@a["alpha"] = count();
	@a["beta"] = count();
	@a["beta"] = count();
	@a["a key that is longer than the fifty columns of the key field"] = count();
	exit(0);
}
