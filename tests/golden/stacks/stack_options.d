/* stackframes bounds stack() without an argument; stackindent indents frames. */
stacks:test:deep:fire
/i++ == 0/
{
	stack();
	stack(5);
}

stacks:test:empty:fire
{
	exit(0);
}
