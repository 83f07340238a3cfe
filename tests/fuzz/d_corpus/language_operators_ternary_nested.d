/* ?: nests right to left. */
#pragma D option quiet

BEGIN
{
	x = 5;
	printf("%s\n", x < 0 ? "neg" : x == 0 ? "zero" : "pos");
	exit(0);
}
