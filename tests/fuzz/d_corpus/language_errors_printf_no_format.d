/* printf() needs a format string. */
BEGIN
{
	printf(1);
}
