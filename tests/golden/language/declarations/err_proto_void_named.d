/* A void parameter has no name. */
int f(void x);

BEGIN
{
	exit(0);
}
