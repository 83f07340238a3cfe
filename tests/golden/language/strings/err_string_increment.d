/* ++ wants a scalar. */
BEGIN
{
	s = "a";
	s++;
}
