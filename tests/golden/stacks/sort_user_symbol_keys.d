/* usym(), umod() and uaddr() keys sort as their process id and address,
   numbers (DTrace's dt_aggregate_keycmp), not as bytes: with aggsortkey,
   and for equal values, a.out`main (0x401000) comes before 0xbadcafe,
   which comes before libc.so.1`fread (0x7f0000002000) and ld.so.1. */
#pragma D option aggsortkey

stacks:test:deep:fire
/i++ == 0/
{
	@u[usym(arg6)] = count();
	@u[usym(arg4)] = count();
	@u[usym(arg7)] = count();
	@u[usym(arg5)] = count();
	@a[uaddr(arg6)] = count();
	@a[uaddr(arg7)] = count();
	@a[uaddr(arg5)] = count();
	@a[uaddr(arg4)] = count();
}

stacks:test:empty:fire
{
	printa(@u);
	setopt("aggsortkey", "");
	printa(@a);
	exit(0);
}
