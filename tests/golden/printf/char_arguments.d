/* %c takes char, short or int. */
#pragma D option quiet

BEGIN
{
	printf("%c%c%c\n", (char)'o', (short)'k', 33);
	exit(0);
}
