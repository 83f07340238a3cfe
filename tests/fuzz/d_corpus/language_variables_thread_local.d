/* Thread-local variables live per thread; assigning 0 deletes one. */
#pragma D option quiet

self int depth;

BEGIN
{
	self->depth = 3;
	self->name = "first";
	self->depth++;
	printf("%d %s\n", self->depth, self->name);
	self->depth = 0;
	printf("%d\n", self->depth);
}

END
{
	printf("%s\n", self->name == "first" ? "same thread" : "other thread");
}

BEGIN
{
	exit(0);
}
