/* Clauses for the same probe run in program order; a description list shares one clause. */
#pragma D option quiet

BEGIN
{
	printf("first\n");
}

BEGIN,
END
{
	printf("%s\n", probename);
}

BEGIN
{
	printf("third\n");
	exit(0);
}
