/*
 * A string plus an integer is the string from that byte on (DTrace treats
 * the string as an array of char); the difference of two strings is a ptrdiff_t.
 */
#pragma D option quiet

BEGIN
{
	s = "abcdef";
	printf("%s %s %s\n", s + 2, 1 + s, s - 0);
	this->d = s - s;
	printf("%d %d\n", this->d, sizeof (s - s));
	exit(0);
}
