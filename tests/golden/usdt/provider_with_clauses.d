/* A provider definition beside clauses: the program runs. */
provider myprov {
	probe request__start(char *, int);
};

BEGIN
{
	printf("ran\n");
	exit(0);
}
