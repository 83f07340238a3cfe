#!/usr/sbin/dtrace -x strsize=8 -s
/* A string longer than strsize is cut when stored. */
#pragma D option quiet

BEGIN
{
	s = "abcdefghijklmnop";
	printf("%s\n", s);
	exit(0);
}
