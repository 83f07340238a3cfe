/*
 * A frame count whose record DTrace cannot size in 32 bits (0x20000000
 * frames of 8 bytes is 2^32) is refused when tracing starts, never wrapped
 * to a zero-byte record.
 */
BEGIN
{
	stack(0x20000000);
	exit(0);
}
