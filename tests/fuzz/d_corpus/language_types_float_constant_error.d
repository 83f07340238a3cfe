/* Floating-point constants are not permitted. */
#pragma D option quiet

BEGIN
{
	trace(1.5);
	exit(0);
}
