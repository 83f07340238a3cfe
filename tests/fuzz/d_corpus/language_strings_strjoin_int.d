/* strjoin() takes strings: an integer is refused. */
BEGIN
{
	trace(strjoin("a", 1));
}
