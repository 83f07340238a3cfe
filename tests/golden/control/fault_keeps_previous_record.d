/*
 * A clause that records nothing and faults leaves the records before it
 * alone.
 */
#pragma D option quiet

BEGIN
{
	printf("kept\n");
}

BEGIN
{
	x = 0;
	@a = sum(1 / x);
}

BEGIN
{
	exit(0);
}
