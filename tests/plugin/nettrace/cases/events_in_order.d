/* Every event of the stream in timestamp order, with its context (time in
   ns after the stream's sync time, 2024-03-01 12:00:00 UTC): the same lines
   for each encoding of the same content. */
diag:::events
{
	printf("%d %s id=%d pid=%d tid=%d cpu=%d len=%d\n", walltimestamp - 1709294400000000000,
	    stringof(copyinstr(arg0)), arg1, pid, tid, cpu, arg3);
}

END
{
	printf("end at %d\n", timestamp - 1709294400000000000);
}
