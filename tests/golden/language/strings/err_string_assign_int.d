/* Only 0 (NULL) is assignable to a string. */
BEGIN
{
	s = "a";
	s = 1;
}
