/* An integer minus a string. */
BEGIN
{
	trace(1 - "b");
}
