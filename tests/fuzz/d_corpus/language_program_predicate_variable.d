/* A predicate reads variables set by earlier clauses. */
#pragma D option quiet

BEGIN
{
	go = 1;
}

BEGIN
/go/
{
	printf("go\n");
	exit(0);
}
