/* Allocation totals by type, from the GC's allocation ticks (issue 15). */
dnet:::allocate-tick
{
	@[args[0]->gc_typename] = sum(args[0]->gc_amt);
}
