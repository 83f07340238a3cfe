/* ^^ is logical exclusive or. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", 1 ^^ 0, 1 ^^ 2, 0 ^^ 0);
	exit(0);
}
