#pragma D option quiet

BEGIN
{
	@a[1, 2] = sum(30);
	@a[3, 4] = sum(70);
	printa("%d+%d: %@x\n", @a);
	exit(0);
}
