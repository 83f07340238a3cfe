#pragma D option quiet

BEGIN
{
	@a = sum(600);
	normalize(@a, 60);
	printa("normalized: %@d\n", @a);
	denormalize(@a);
	printa("raw: %@d\n", @a);
	exit(0);
}
