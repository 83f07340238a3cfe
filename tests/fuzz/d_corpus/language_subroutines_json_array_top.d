/* json() of a top-level array indexes with [n]. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", json("[\"a\", \"b\"]", "[1]"));
	exit(0);
}
