/*
 * Global and clause-local variables held by reference may take up to
 * 16 KB (DTrace's dtrace_statvar_maxsize): arrays, structs, and strings at
 * strsize. At 16 KB exactly they work, end to end.
 */
#pragma D option quiet
#pragma D option strsize=16384

char global_buf[16384];
this char local_buf[16384];
struct blob { char bytes[16376]; uint64_t last; };
struct blob g;

BEGIN
{
	global_buf[16383] = 'g';
	this->local_buf[16383] = 'l';
	g.last = 16384;
	text = "sixteen kilobytes of string";
	self->thread_text = text;
	printf("%c %c %d %s %d\n", global_buf[16383], this->local_buf[16383], g.last, self->thread_text,
	    sizeof (global_buf) + sizeof (g));
	exit(0);
}
