sampled:::profile
{
	printf("sample: tid %d, %d kernel frames, %d user frames, caller 0x%x, ucaller 0x%x\n", tid, stackdepth,
	    ustackdepth, caller, ucaller);
}

diag:::missed-stack
{
	printf("missed stack: of the event at %d, tid %d, %d kernel frames\n", arg0, tid, stackdepth);
}

sampled:::profile
{
	/* Frames named by the images the trace's Image events placed. */
	stack();
	ustack();
}
