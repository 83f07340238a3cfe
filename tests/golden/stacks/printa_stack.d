/* printa() with %k: each frame runs through the conversion (a width pads
   it, '-' makes the width the indentation); %a and %A print sym() and
   usym() keys, which the consumer moved to their function's start (as
   DTrace's dt_aggregate.c does, so that keys of one function merge). */
stacks:test:deep:fire,
stacks:test:shallow:fire
{
	@s[stack(2)] = count();
	@a[sym(arg0), usym(arg4)] = count();
	@m[mod(arg0), umod(arg4), uaddr(arg4)] = count();
}

stacks:test:empty:fire
{
	printa("%k %@d\n", @s);
	printa("%-8k|%@d\n", @s);
	printa("%30k|%@d\n", @s);
	printa("%a %A %@d\n", @a);
	printa(@a);
	printa(@m);
	exit(0);
}
