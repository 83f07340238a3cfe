/*
 * Reading past the end of the scratch alloca() handed out faults as an
 * invalid address (the address varies from run to run).
 */
#pragma D option quiet

BEGIN
{
	p = (char *)alloca(8);
	trace(p[4096]);
}

BEGIN
{
	exit(0);
}
