/* sym() in the default output, after the probe line. */
stacks:test:shallow:fire
{
	sym(arg0);
	umod(arg4);
}

stacks:test:empty:fire
{
	exit(0);
}
