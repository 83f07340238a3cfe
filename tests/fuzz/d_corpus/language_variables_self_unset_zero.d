/* A thread-local assigned only in a clause that has not run reads as 0. */
#pragma D option quiet

BEGIN
/0/
{
	self->t = 5;
}

BEGIN
{
	printf("%d\n", self->t);
	exit(0);
}
