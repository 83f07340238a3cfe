#!/usr/sbin/dtrace -x cpp -s
/* -x cpp is -C. */
#pragma D option quiet

#define Y 5

BEGIN
{
	printf("%d\n", Y);
	exit(0);
}
