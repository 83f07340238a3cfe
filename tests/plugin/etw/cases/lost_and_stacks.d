diag:::lostevent
{
	printf("lost: %s opcode %d\n", stringof(copyinstr(arg0)), arg2);
}

diag:::missed-stack
{
	printf("stack of the event at %d, %s pid %d tid %d, %d kernel frames\n", arg0, execname, pid, tid, stackdepth);
}

sampled:::profile
{
	printf("sample with its stack: %d kernel frames, %d user frames\n", stackdepth, ustackdepth);
}
