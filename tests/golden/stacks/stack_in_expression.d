BEGIN
{
	trace(stack());
}
