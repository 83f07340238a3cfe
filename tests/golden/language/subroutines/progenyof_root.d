/*
 * progenyof() walks up to the root of the process tree, pid 0, so every
 * process is progeny of 0; its argument is a pid_t (the low 32 bits).
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", progenyof(0), progenyof(0x100000000), progenyof(0x100000000 + $pid));
	exit(0);
}
