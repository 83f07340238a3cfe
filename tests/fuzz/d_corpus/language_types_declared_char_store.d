/* Storing into a char variable narrows the value. */
#pragma D option quiet

char c;

BEGIN
{
	c = 0x141;
	printf("%d\n", c);
	exit(0);
}
