/* The eight types allocated most, from the GC's allocation ticks. */
dnet:::allocate-tick
{
	@[args[0]->gc_typename] = sum(args[0]->gc_amt);
}

END
{
	trunc(@, 8);
}
