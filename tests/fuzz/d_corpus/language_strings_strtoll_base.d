/* strtoll() with a base. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", strtoll("ff", 16), strtoll("101", 2), strtoll("z", 36));
	exit(0);
}
