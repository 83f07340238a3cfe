#pragma D option quiet

BEGIN
{
	n = 3;
}

BEGIN
/n > 2/
{
	printf("n is %d\n", n);
}

BEGIN
/n > 5/
{
	printf("not printed\n");
}

BEGIN
/probename == "BEGIN" && n == 3/
{
	printf("string predicate\n");
	exit(0);
}
