/* Nor can an integer become a float by a cast. */
BEGIN
{
	trace((double)1);
}
