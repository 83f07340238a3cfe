/* $pid is dtrace's own process id. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", $pid > 1);
	exit(0);
}
