/* dirname() of a name without a slash is ".". */
#pragma D option quiet

BEGIN
{
	printf("%s\n", dirname("c.txt"));
	exit(0);
}
