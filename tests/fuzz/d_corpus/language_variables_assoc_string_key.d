/* An associative array keyed by a string. */
#pragma D option quiet

BEGIN
{
	a["x"] = 1;
	a["y"] = 2;
	printf("%d %d\n", a["x"], a["y"]);
	exit(0);
}
