/* %d wants an integer. */
float f;

BEGIN
{
	printf("%d\n", f);
}
