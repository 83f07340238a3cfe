/* The ids each event was written with, beside the ones it was fired with. */
etw:::Seen
{
	printf("event of pid %d tid %d: written with pid %d tid %d\n", args[0], args[1], pid, tid);
}
