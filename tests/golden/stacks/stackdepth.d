/* stackdepth and ustackdepth: the frames the firing's stacks have. */
stacks:test:*:fire
{
	printf("%s %d %d\n", probefunc, stackdepth, ustackdepth);
}

stacks:test:empty:fire
{
	exit(0);
}
