/* -D defines a macro. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", VALUE);
	exit(0);
}
