/* rand() returns varying integers. */
#pragma D option quiet

BEGIN
{
	a = rand();
	b = rand();
	c = rand();
	printf("%d\n", a != b || b != c);
	exit(0);
}
