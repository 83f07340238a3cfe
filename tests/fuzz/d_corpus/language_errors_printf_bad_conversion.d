/* printf() with an unknown conversion. */
BEGIN
{
	printf("%y\n", 1);
}
