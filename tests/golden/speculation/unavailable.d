/*
 * With nspec=1 a second speculation() fails (id 0) and is reported;
 * speculating on id 0 records nothing, and committing or discarding it does
 * nothing.
 */
#pragma D option quiet
#pragma D option nspec=1

BEGIN
{
	a = speculation();
	b = speculation();
	printf("a=%d b=%d\n", a, b);
}

BEGIN
{
	speculate(b);
	printf("lost\n");
}

BEGIN
{
	commit(b);
	discard(b);
}

BEGIN
{
	exit(0);
}
