/* Associative arrays: any key tuple, unset elements read as zero. */
#pragma D option quiet

BEGIN
{
	a["x"] = 1;
	a["y"] = 2;
	b[1, "one"] = 100;
	b[2, "two"] = 200;
	printf("%d %d %d\n", a["x"], a["y"], a["z"]);
	printf("%d %d %d\n", b[1, "one"], b[2, "two"], b[1, "two"]);
	a["x"] += 10;
	printf("%d\n", a["x"]);
	a["x"] = 0;
	printf("%d\n", a["x"]);
	c[execname] = "name";
	printf("%s\n", c["dtrace"]);
	exit(0);
}
