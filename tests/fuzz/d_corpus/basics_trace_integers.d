/* trace() of integers of each size, in the default (non-quiet) output */
BEGIN
{
	trace((char)1);
	trace((short)-2);
	trace(3);
	trace(4L);
	trace(-5LL);
	trace(0xffffffffffffffffULL);
}

BEGIN
{
	exit(0);
}
