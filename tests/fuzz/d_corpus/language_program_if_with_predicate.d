/* if inside a clause with a predicate. */
#pragma D option quiet

BEGIN
/1/
{
	if (probename == "BEGIN")
		printf("yes\n");
	exit(0);
}
