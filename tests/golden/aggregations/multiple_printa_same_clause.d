/* Each printa() prints the aggregation as the consumer has it then. */
#pragma D option quiet

BEGIN
{
	@a = count();
	printa("first %@d\n", @a);
	printa("second %@d\n", @a);
	exit(0);
}
