/* Parameter names are distinct. */
int f(int a, char *a);

BEGIN
{
	exit(0);
}
