/*
 * Discarded speculations print nothing; data-recording actions may follow
 * discard(), and a committed speculation is free again.
 */
#pragma D option quiet

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	printf("never printed\n");
}

BEGIN
{
	discard(spec);
	printf("discarded %d\n", spec);
	spec = speculation();
	printf("free again: %d\n", spec);
}

BEGIN
{
	speculate(spec);
	printf("kept\n");
}

BEGIN
{
	commit(spec);
}

BEGIN
{
	exit(0);
}
