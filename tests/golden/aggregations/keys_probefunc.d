/* Built-in variables make keys like any other expression. */
#pragma D option quiet

BEGIN
{
	@a[probeprov, probename] = count();
	exit(0);
}

END
{
	@a[probeprov, probename] = count();
}
