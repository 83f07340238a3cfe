/* ustack() names frames in the firing's process; jstack() is ustack() when no
   Java helper exists; a firing without a user stack prints only the line
   break that starts a stack. */
stacks:test:deep:fire
/i++ == 0/
{
	ustack();
	ustack(2);
	ustack(3, 64);
	jstack();
}

stacks:test:empty:fire
{
	ustack();
	exit(0);
}
