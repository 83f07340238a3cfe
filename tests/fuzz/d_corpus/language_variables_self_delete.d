/* Assigning 0 to a thread-local frees it; it reads 0 again. */
#pragma D option quiet

BEGIN
{
	self->t = 5;
	self->t = 0;
	printf("%d\n", self->t);
	exit(0);
}
