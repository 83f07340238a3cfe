/* alloca() beyond scratch space faults: out of scratch space. */
BEGIN
{
	p = alloca(100000000);
	trace(p != 0);
}

BEGIN
{
	exit(0);
}
