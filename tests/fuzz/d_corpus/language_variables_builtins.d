/* Builtin variables that describe the probe. */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s] [%s] [%s]\n", probeprov, probemod, probefunc, probename);
	printf("%d %d\n", id, epid > 0);
	printf("%d %d\n", pid > 0, timestamp > 0);
	exit(0);
}
