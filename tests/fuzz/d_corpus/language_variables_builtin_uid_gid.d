/* uid and gid are the firing process's ids. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", uid == $uid, gid == $gid);
	exit(0);
}
