/* A declared associative array fixes key and value types. */
#pragma D option quiet

int a[string, int];

BEGIN
{
	a["x", 1] = 5;
	printf("%d\n", a["x", 1]);
	exit(0);
}
