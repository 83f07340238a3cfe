/* printa() with a format and no entries prints nothing at all. */
#pragma D option quiet

BEGIN
{
	@a[1] = count();
	trunc(@a);
	printa("%d %@d\n", @a);
	printf("done\n");
	exit(0);
}
