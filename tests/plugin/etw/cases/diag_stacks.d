/*
 * A script of diag probes alone (the file is not read for its providers
 * first): the events a StackWalk event follows still have their stacks.
 */
diag:::events
/stackdepth > 0 || ustackdepth > 0/
{
	printf("%s opcode %d: %d kernel frames, %d user frames\n", stringof(copyinstr(arg0)), arg2, stackdepth,
	    ustackdepth);
	stack();
	ustack();
}

diag:::missed-stack
{
	printf("missed stack: of the event at %d\n", arg0);
}
