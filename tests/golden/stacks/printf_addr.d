/* printf's %a names a kernel address as stack frames are named, and takes
   widths and '-' as %s does. */
stacks:test:shallow:fire
{
	printf("%a|%a|%a|%a\n", arg0, arg1, arg2, arg3);
	printf("[%-30a]\n[%30a]\n", arg0, arg0);
	printf("%a\n", (int)arg3);
}

stacks:test:empty:fire
{
	exit(0);
}
