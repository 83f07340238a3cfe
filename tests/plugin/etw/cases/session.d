/*
 * Two files of one session (-E given twice, or an archive holding both):
 * their events in timestamp order, the kernel file's process naming the
 * user file's events from the time it is named, the sample's stack found
 * across the other file's event between them. Times in 100 ns ticks from
 * BEGIN (the first event after the header records).
 */
BEGIN
{
	start = timestamp;
}

diag:::events
{
	printf("%5d %s id %d opcode %d pid %d execname \"%s\"\n", (timestamp - start) / 100,
	    stringof(copyinstr(arg0)), arg1, arg2, pid, execname);
}

sampled:::profile
{
	printf("sample of %s: %d kernel frames, %d user frames\n", execname, stackdepth, ustackdepth);
}

diag:::missed-stack
{
	printf("missed stack\n");
}

END
{
	printf("end at %d\n", (timestamp - start) / 100);
}
