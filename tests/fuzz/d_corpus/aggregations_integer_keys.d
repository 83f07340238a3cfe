#pragma D option quiet

BEGIN
{
	@a[1] = count();
	@a[2] = count();
	@a[2] = count();
	@a[-3] = count();
	@b[1, "one"] = sum(10);
	@b[2, "two"] = sum(5);
	@c[(char)1, (short)2] = sum(3);
	exit(0);
}
