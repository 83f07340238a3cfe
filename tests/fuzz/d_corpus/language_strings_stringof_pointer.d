/* stringof() of a char pointer reads a string. */
#pragma D option quiet

BEGIN
{
	p = (char *)alloca(4);
	p[0] = 'h';
	p[1] = 'i';
	p[2] = 0;
	printf("%s\n", stringof(p));
	exit(0);
}
