/* A function name alone is not a value. */
BEGIN
{
	trace(strlen);
}
