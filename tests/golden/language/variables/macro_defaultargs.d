#!/usr/sbin/dtrace -x defaultargs -s
/* With -x defaultargs, missing operands are 0 (or "" with $$). */
#pragma D option quiet

BEGIN
{
	printf("%d [%s]\n", $1, $$2);
	exit(0);
}
