/*
 * Speculative records print only once committed, after what the principal
 * buffer received in the meantime, in the order they were speculated.
 */
#pragma D option quiet

BEGIN
{
	self->spec = speculation();
	printf("speculation %d\n", self->spec);
}

BEGIN
{
	speculate(self->spec);
	printf("first speculative line\n");
}

BEGIN
{
	printf("principal line\n");
}

BEGIN
{
	speculate(self->spec);
	printf("second speculative line: %s\n", "two");
}

BEGIN
{
	commit(self->spec);
}

BEGIN
{
	exit(0);
}
