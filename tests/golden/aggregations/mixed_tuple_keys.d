#pragma D option quiet

BEGIN
{
	@a[1, "one", (char)1] = sum(10);
	@a[2, "two", (char)2] = sum(20);
	@a[2, "one", (char)3] = sum(5);
	exit(0);
}
