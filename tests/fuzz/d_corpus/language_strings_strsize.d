/*
 * strsize bounds strings: a string stored in a variable keeps at most
 * strsize - 1 characters. (Unsure: this relies on DTrace's copy into a
 * string variable truncating rather than faulting.)
 */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	s = strjoin("abc", "def");
	printf("%s %d\n", s, strlen(s));
	t = "abcdefghijkl";
	printf("%s %d\n", t, strlen(t));
	exit(0);
}
