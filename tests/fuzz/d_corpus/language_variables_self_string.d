/* A thread-local string. */
#pragma D option quiet

BEGIN
{
	self->s = "hello";
	printf("%s\n", self->s);
	exit(0);
}
