/* exit() needs an integer. */
BEGIN
{
	exit("x");
}
