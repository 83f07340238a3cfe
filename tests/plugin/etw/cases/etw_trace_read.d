/* Reads back what etw_trace_write.d wrote: the probes are named by event, the fields typed. */
etw:5f1c3a2b-0d4e-4f60-8a7b-9c0d1e2f3a4b::Greeting
{
	printf("%s level %d: Text %s Count %d Big %x Wide %s Flag %d\n", probename,
	    *(uint8_t *)copyin(arg0 + 0x2c, 1), copyinstr(args[0]), args[1], args[2], copyinstr(args[3]), args[4]);
}

etw:5f1c3a2b-0d4e-4f60-8a7b-9c0d1e2f3a4b::Tick
{
	printf("%s: Number %d\n", probename, args[0]);
}

fixture.writer:::events
{
	@[arg0, arg1] = count();
}
