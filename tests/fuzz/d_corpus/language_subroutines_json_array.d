/* json() indexes arrays with [n]. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", json("{\"a\": [10, 20, 30]}", "a[1]"));
	exit(0);
}
