BEGIN
{
	trace(1
}
