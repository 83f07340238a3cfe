/* A thread-local associative array. */
#pragma D option quiet

BEGIN
{
	self->a["x"] = 3;
	printf("%d %d\n", self->a["x"], self->a["y"]);
	exit(0);
}
