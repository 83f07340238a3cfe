/* Thread-local associative arrays. */
#pragma D option quiet

BEGIN
{
	self->t["a"] = 1;
	self->t["b"] = 2;
	printf("%d %d %d\n", self->t["a"], self->t["b"], self->t["c"]);
	exit(0);
}
