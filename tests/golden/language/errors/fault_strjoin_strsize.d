#!/usr/sbin/dtrace -x strsize=8 -s
/* strjoin() whose result does not fit in strsize faults: out of scratch space. */
BEGIN
{
	trace(strjoin("abcdefgh", "ijklmnop"));
}

BEGIN
{
	exit(0);
}
