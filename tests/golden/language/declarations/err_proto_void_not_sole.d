/* void must be the only parameter of a prototype. */
int f(int, void);

BEGIN
{
	exit(0);
}
