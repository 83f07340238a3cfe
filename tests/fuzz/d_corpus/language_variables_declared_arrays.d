/* Associative arrays declared with a key signature and a value type. */
#pragma D option quiet

int counts[string];
string names[int, int];

BEGIN
{
	counts["read"]++;
	counts["read"]++;
	names[1, 2] = "pair";
	printf("%d %s [%s]\n", counts["read"], names[1, 2], names[2, 1]);
	exit(0);
}
