/* exit(N) sets dtrace's exit status. */
#pragma D option quiet

BEGIN
{
	exit(3);
}
