sampled:::profile
/ustackdepth > 0/
{
	/* Jitted frames named by the CLR's method events, one of them only by
	   the rundown at the end of the trace; then an image frame and an
	   address nothing names. */
	@[ustack()] = count();
}
