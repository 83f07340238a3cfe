/* Strings are values: assignment copies, comparison compares contents. */
#pragma D option quiet

BEGIN
{
	a = "one";
	b = a;
	a = "two";
	printf("%s %s %d\n", a, b, a == b);
	c[a] = b;
	printf("%s\n", c["two"]);
	printf("%s\n", execname);
	exit(0);
}
