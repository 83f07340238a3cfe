/* The kernel logger's PMC events (family_pmc.cpp) replayed from pmc.etl: the sampling sources,
 * the counters attached to events, and the samples of each source by its probe. */
pmc:::sample-src
{
	printf("%s: source %d %s, interval %d\n", probename, arg0, stringof(args[1]), arg2);
}

pmc:::counter-src
{
	printf("%s: %d counters: %s\n", probename, arg0, stringof(args[1]));
}

pmc:::totalcycles, pmc:::instructionretired, pmc:::branchmispredictions
{
	printf("%s: %s pid %d tid %d ip 0x%x source %d %s\n", probename, execname, pid, tid, arg0, arg1,
	    stringof(args[2]));
}

pmc:::sample
{
	@[arg1, stringof(args[2])] = count();
}

END
{
	printa("every sample: source %d \"%s\" %@d\n", @);
}

/* The counters the kernel attached to an event, by the names of its counter configuration (any case). */
syscall:::entry
{
	printf("%s: TotalCycles %d, InstructionRetired %d\n", probename, pmc["totalcycles"], pmc["InstructionRetired"]);
}

/* An event without counters: the read faults. */
syscall:::return
{
	printf("%s: %d\n", probename, pmc["TotalCycles"]);
}
