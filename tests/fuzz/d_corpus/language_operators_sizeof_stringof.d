/* sizeof of expressions and types; stringof of something string-like. */
#pragma D option quiet

BEGIN
{
	x = 1;
	y = 2LL;
	printf("%d %d %d\n", sizeof (x), sizeof (y), sizeof x + sizeof y);
	printf("%d\n", sizeof ("hello"));
	printf("%s|%s\n", stringof("str"), stringof(probename));
	exit(0);
}
