/* Two strings do not add. */
BEGIN
{
	s = "a";
	trace(s + s);
}
