/* A clause without its closing brace. */
BEGIN
{
	trace(1);
