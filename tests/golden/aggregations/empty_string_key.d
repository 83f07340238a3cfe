/*
 * An empty string aggregation key: its record is strsize NUL bytes, which
 * DTrace's consumer (dt_print_bytes) does not take for a string (a string
 * needs a printable byte before its NUL), so printa() dumps it in hex.
 */
#pragma D option quiet
#pragma D option strsize=32

BEGIN
{
	@[""] = count();
	@["y"] = count();
	@[probename == "BEGIN" ? "" : "z"] = count();
	exit(0);
}
