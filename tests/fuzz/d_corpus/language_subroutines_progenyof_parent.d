/* A process is progeny of its parent. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", progenyof($ppid));
	exit(0);
}
