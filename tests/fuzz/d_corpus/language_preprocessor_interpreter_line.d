#!/usr/sbin/dtrace -Cs
/* The interpreter line is blanked before cpp runs: line numbers stay right. */

BEGIN
{
	trace(nosuch);
}
