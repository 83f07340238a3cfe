/* #line renumbers the lines that follow: the error names the new line. */
#line 100
BEGIN
{
	trace(nosuch);
}
