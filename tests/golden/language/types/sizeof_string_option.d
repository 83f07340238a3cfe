#!/usr/sbin/dtrace -x strsize=64 -s
/* sizeof (string) follows the strsize option. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", sizeof (string));
	exit(0);
}
