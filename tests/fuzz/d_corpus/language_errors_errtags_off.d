/* Without -xerrtags the message has no tag. */
BEGIN
{
	trace(nosuch);
}
