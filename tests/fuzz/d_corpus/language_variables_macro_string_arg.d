/* $$1 is the first operand as a string. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", $$1);
	exit(0);
}
