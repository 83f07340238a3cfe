#pragma D option quiet

BEGIN
{
	printf("%s:%s:%s:%s id=%d\n", probeprov, probemod, probefunc, probename, id);
	printf("pid matches: %d\n", pid == $pid);
	printf("execname: %s\n", execname);
	printf("cpu: %d\n", cpu);
	printf("timestamp nonzero: %d\n", timestamp != 0);
	printf("walltimestamp after 2020: %d\n", walltimestamp > 1577836800000000000);
	printf("epid: %d\n", epid);
	exit(0);
}
