/* A char array in scratch memory prints with %s. */
#pragma D option quiet

BEGIN
{
	s = (char *)alloca(8);
	s[0] = 'd';
	s[1] = 't';
	printf("%s\n", stringof(s));
	exit(0);
}
