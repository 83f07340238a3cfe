/* A global first assigned a string is a string. */
#pragma D option quiet

BEGIN
{
	s = "abc";
	printf("%s %d\n", s, sizeof (s));
	exit(0);
}
