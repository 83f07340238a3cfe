/*
 * normalize() applies to the entries that exist when the consumer carries
 * it out; an entry created afterwards prints unnormalized, and
 * denormalize() restores the normalized ones.
 */

#pragma D option quiet

BEGIN
{
	@a["before"] = sum(1000);
	@b["before"] = count();
	normalize(@a, 10);
}

tick-50ms
{
	exit(0);
}

END
{
	@a["after"] = sum(1000);
	@a["before"] = sum(1000);
	printa("%-8s %@d\n", @a);
	denormalize(@a);
	printa("%-8s %@d\n", @a);
}
