/*
 * nspec speculations are available at once; each commits on its own.
 */
#pragma D option quiet
#pragma D option nspec=3

BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	printf("%d %d %d\n", a, b, c);
}

BEGIN
{
	speculate(a);
	printf("from a\n");
}

BEGIN
{
	speculate(b);
	printf("from b\n");
}

BEGIN
{
	speculate(c);
	printf("from c\n");
}

BEGIN
{
	commit(c);
}

BEGIN
{
	discard(b);
}

BEGIN
{
	commit(a);
}

BEGIN
{
	exit(0);
}
