/* #pragma D option quiet suppresses the default output. */
#pragma D option quiet

BEGIN
{
	trace(1);
	exit(0);
}
