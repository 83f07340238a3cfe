/* . needs a struct or union. */
BEGIN
{
	x = 1;
	trace(x.y);
}
