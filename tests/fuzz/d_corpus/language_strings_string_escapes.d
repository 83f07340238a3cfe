/* Escapes in string literals. */
#pragma D option quiet

BEGIN
{
	printf("%s|%s|%s\n", "tab\there", "quote\"d", "back\\slash");
	exit(0);
}
