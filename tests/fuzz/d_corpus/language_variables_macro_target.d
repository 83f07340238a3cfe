/* $target is the pid of the -c command. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", $target > 0);
	exit(0);
}
