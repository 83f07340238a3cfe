/* Escapes in character constants. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", '\n', '\t', '\\', '\0', '\x41');
	exit(0);
}
