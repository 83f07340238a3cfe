/* A module-scoped symbol names an unknown module. */
BEGIN
{
	trace(nosuchmod`nosuch_symbol);
}
