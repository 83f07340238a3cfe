/*
 * An id no speculation has is an illegal operation (no DIF offset: the
 * action itself faulted).
 */
#pragma D option quiet

BEGIN
{
	speculate(9);
	printf("not recorded\n");
}

BEGIN
{
	x = 1;
	commit(-1);
}

BEGIN
{
	discard(2);
}

BEGIN
{
	exit(0);
}
