/* A backquoted symbol no plugin provides fails to resolve. */
BEGIN
{
	trace(`nosuch_symbol);
}
