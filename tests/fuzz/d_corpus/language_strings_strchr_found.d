/* strchr() returns the rest of the string from the first match. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strchr("a.b.c", '.'));
	exit(0);
}
