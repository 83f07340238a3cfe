/* ppid is the parent of the firing process. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", ppid == $ppid);
	exit(0);
}
