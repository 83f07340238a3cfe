/*
 * ustack() of 0x7fffffff frames: a record of 2^34 bytes, refused when
 * tracing starts, as any record larger than the buffer.
 */
BEGIN
{
	ustack(0x7fffffff);
	exit(0);
}
