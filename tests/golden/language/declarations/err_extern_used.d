/* An extern names no D variable: using it unscoped fails to resolve. */
extern int nevents_d;

BEGIN
{
	trace(nevents_d);
}
