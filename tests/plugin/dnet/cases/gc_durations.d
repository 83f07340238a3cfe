/* GC durations: gc-start and gc-end paired by the GC's count (issue 15). */
dnet:::gc-start
{
	start[args[0]->gc_count] = timestamp;
	depth[args[0]->gc_count] = args[0]->gc_depth;
}

dnet:::gc-end
/start[args[0]->gc_count]/
{
	@["gen", depth[args[0]->gc_count]] = quantize((timestamp - start[args[0]->gc_count]) / 1000);
	start[args[0]->gc_count] = 0;
}
