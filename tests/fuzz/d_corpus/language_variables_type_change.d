/* A variable keeps its first type. */
BEGIN
{
	x = 1;
	x = "str";
}
