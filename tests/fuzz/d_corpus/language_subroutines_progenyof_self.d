/* progenyof($pid) is true for dtrace's own probes. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", progenyof($pid));
	exit(0);
}
