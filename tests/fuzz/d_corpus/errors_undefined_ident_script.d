BEGIN
{
	x = 1;
	trace(y);
}
