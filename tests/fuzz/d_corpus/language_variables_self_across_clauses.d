/* A thread-local keeps its value across clauses on one thread. */
#pragma D option quiet

BEGIN
{
	self->t = 5;
}

BEGIN
{
	printf("%d\n", self->t);
	exit(0);
}
