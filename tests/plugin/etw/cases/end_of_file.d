/* BEGIN, the events in time order, tick-1s on trace time, END at the end of the file. */
BEGIN
{
	printf("begin\n");
}

diag:::events
{
	printf("%d %s\n", timestamp, stringof(copyinstr(arg0)));
}

tick-1s
{
	printf("tick at %d\n", timestamp);
}

END
{
	printf("end\n");
}
