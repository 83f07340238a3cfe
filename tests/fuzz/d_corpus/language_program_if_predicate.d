/* A clause with a predicate and if statements runs only when the predicate holds. */
#pragma D option quiet

BEGIN
{
	n = 3;
}

BEGIN
/n > 5/
{
	printf("not printed\n");
	if (n)
		printf("not printed either\n");
}

BEGIN
/n == 3/
{
	if (n == 3)
		printf("three\n");
	exit(0);
}
