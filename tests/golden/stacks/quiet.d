/* With -q a stack still starts on a line of its own, and no blank line ends the firing. */
stacks:test:shallow:fire
{
	printf("kernel:");
	stack();
	printf("user:");
	ustack();
	printf("end\n");
}

stacks:test:empty:fire
{
	exit(0);
}
