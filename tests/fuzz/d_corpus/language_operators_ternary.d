/* The conditional operator. */
#pragma D option quiet

BEGIN
{
	x = 5;
	printf("%s\n", x > 3 ? "big" : "small");
	printf("%d\n", x < 3 ? 10 : x == 5 ? 20 : 30);
	s = x ? "yes" : "no";
	printf("%s %d\n", s, 1 ? 2 : 3);
	exit(0);
}
