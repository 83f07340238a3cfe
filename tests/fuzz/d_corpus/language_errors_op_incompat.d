/* A string and an integer do not add. */
BEGIN
{
	x = "a" + 1;
}
