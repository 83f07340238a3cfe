/* Two strings do not add (a string plus an integer is the string from that byte on). */
BEGIN
{
	trace("a" + "b");
}
