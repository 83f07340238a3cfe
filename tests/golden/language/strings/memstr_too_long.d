/*
 * memstr() of a block longer than FreeBSD's default memstr_max (4096
 * bytes) is an illegal operation.
 */
#pragma D option quiet

BEGIN
{
	this->b = (char *)alloca(5000);
	trace(memstr(this->b, ' ', 5000));
}

BEGIN
{
	exit(0);
}
