/* At exit, aggregations print in the order they first appear in the program. */
#pragma D option quiet

BEGIN
{
	@second = sum(2);
	@first = sum(1);
	@third = sum(3);
	exit(0);
}
