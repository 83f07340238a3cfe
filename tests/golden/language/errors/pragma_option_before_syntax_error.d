/*
 * A pragma's option is set as the pragma is read, so its error comes before
 * the syntax error further down.
 */
#pragma D option nosuchoption

BEGIN
{
	trace(;
}
