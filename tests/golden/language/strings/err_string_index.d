/* s[i] is *(s + i): a string is not a pointer to dereference. */
BEGIN
{
	s = "abc";
	trace(s[1]);
}
