BEGIN
{
	printf("%d %s %d\n", $1, $$2, $1 + 1);
	exit(0);
}
