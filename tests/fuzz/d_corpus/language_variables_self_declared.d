/* A declared thread-local has the declared type. */
#pragma D option quiet

self int64_t t;

BEGIN
{
	self->t = -1;
	printf("%d %d\n", self->t, sizeof (self->t));
	exit(0);
}
