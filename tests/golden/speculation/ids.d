#!/usr/sbin/dtrace -q -x nspec=2 -s
/*
 * speculate(), commit() and discard() by id: 0 (what a failed speculation()
 * returns) does nothing and records nothing; a legal id no speculation()
 * handed out is inactive, so its records go nowhere and its commit does
 * nothing; an id above nspec (-1 among them) is an illegal operation.
 */
BEGIN
{
	speculate(0);
	printf("not printed: id 0\n");
}

BEGIN
{
	commit(0);
}

BEGIN
{
	discard(0);
}

BEGIN
{
	speculate(2);
	printf("not printed: inactive id 2\n");
}

BEGIN
{
	commit(2);
}

BEGIN
{
	speculate(3);
	printf("not printed: id 3 is above nspec\n");
}

BEGIN
{
	commit(-1);
}

BEGIN
{
	discard(3);
}

BEGIN
{
	printf("done\n");
	exit(0);
}
