/* ustackframes and jstackframes bound ustack() and jstack() without arguments. */
stacks:test:deep:fire
/i++ == 0/
{
	ustack();
	jstack();
}

stacks:test:empty:fire
{
	exit(0);
}
