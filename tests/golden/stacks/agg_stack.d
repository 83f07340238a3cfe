/* Stacks as aggregation keys, printed at the end: each key's frames on lines
   of their own, then its value. */
stacks:test:deep:fire,
stacks:test:shallow:fire
{
	@k[stack()] = count();
	@u[ustack(2)] = sum(arg5 == 0x401000 ? 10 : 0);
	@both[probefunc, stack(1), ustack(1)] = count();
}

stacks:test:empty:fire
{
	exit(0);
}
