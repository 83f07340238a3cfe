/* A false predicate skips the clause. */
#pragma D option quiet

BEGIN
/0/
{
	printf("skipped\n");
}

BEGIN
{
	printf("ran\n");
	exit(0);
}
