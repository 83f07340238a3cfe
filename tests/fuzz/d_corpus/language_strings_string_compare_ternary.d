/* Strings chosen by ?: compare by content. */
#pragma D option quiet

BEGIN
{
	x = 1;
	printf("%d\n", (x ? "a" : "b") == "a");
	exit(0);
}
