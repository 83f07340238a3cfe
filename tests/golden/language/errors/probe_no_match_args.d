/* A description that matches nothing, whose clause reads args[]: DTrace
   finds no probe before it types args[] (not "index 1 is out of range"). */
nosuchprovider:::nosuchprobe
/args[1] == 0/
{
	trace(args[0]);
}
