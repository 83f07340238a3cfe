/*
 * strtok(): a NULL string continues where the previous call stopped, even
 * in a later action of the clause; empty tokens are skipped.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s]", strtok("a,b,,c", ","));
	printf("[%s]", strtok(NULL, ","));
	printf("[%s]\n", strtok(NULL, ","));
	printf("[%s]\n", strtok("  words here ", " "));
	exit(0);
}
