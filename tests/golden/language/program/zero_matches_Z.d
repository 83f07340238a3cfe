#!/usr/sbin/dtrace -Z -s
/* -Z allows a description that matches no probes. */
#pragma D option quiet

nosuch:::probe
{
}

BEGIN
{
	printf("ran\n");
	exit(0);
}
