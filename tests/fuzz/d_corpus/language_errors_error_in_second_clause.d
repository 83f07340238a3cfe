/* An error in a later clause names its line. */
BEGIN
{
	x = 1;
}

END
{
	trace(x + nosuch);
}
