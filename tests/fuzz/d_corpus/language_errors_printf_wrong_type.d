/* printf() %d of a string. */
BEGIN
{
	printf("%d\n", "abc");
}
