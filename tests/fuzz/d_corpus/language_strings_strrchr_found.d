/* strrchr() returns the rest of the string from the last match. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strrchr("a.b.c", '.'));
	exit(0);
}
