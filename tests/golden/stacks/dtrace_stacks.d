/* dtrace's own probes have no stacks: stack() prints only its line break. */
BEGIN
{
	stack();
	ustack();
	printf("%d %d", stackdepth, ustackdepth);
	exit(0);
}
