/* An extern of a symbol nothing defines compiles; its use fails to resolve. */
extern int nosuch_symbol;

BEGIN
{
	trace(nosuch_symbol);
}
