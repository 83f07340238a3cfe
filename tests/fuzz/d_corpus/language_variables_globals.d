/* Global scalars: created by their first assignment, or declared. */
#pragma D option quiet

int total;
string label;

BEGIN
{
	total = 41;
	total++;
	label = "answer";
	fresh = 7;
	printf("%s %d %d\n", label, total, fresh);
}

BEGIN
{
	printf("%d\n", total + fresh);
	exit(0);
}
