/*
 * Aggregation keys of usym(), ufunc() and umod() are merged by the symbol
 * or module they name, as DTrace's consumer does: samples at several
 * offsets of one jitted method make one usym()/ufunc() entry, samples in
 * one image one umod() entry. An address no function covers (an image
 * frame: the trace names no native functions) stays its own entry, and
 * uaddr() keys stay addresses.
 */
sampled:::profile
{
	@sym[usym(arg1)] = count();
	@func[ufunc(arg1)] = count();
	@mod[umod(arg1)] = count();
	@addr[uaddr(arg1)] = count();
	@pair[umod(arg1), ufunc(arg1)] = sum(10);
}

END
{
	printa(@sym);
	printa(@func);
	printa(@mod);
	printa(@addr);
	printa("%A: %@d\n", @sym);
	printa("%A in %A: %@d\n", @pair);
}
