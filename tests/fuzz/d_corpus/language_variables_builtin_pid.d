/* pid is the process id of the firing thread (dtrace itself for BEGIN). */
#pragma D option quiet

BEGIN
{
	printf("%d\n", pid == $pid);
	exit(0);
}
