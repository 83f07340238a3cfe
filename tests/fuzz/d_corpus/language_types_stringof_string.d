/* stringof() of a string is the string. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", stringof("abc"));
	exit(0);
}
