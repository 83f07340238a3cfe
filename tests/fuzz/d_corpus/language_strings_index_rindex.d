/* index() and rindex(): positions of a substring, -1 when absent. */
#pragma D option quiet

BEGIN
{
	s = "hello, hello";
	printf("%d %d %d\n", index(s, "llo"), rindex(s, "llo"), index(s, "xyz"));
	printf("%d %d\n", index(s, "llo", 3), rindex(s, "llo", 8));
	printf("%d %d\n", index(s, "h"), rindex(s, "h"));
	exit(0);
}
