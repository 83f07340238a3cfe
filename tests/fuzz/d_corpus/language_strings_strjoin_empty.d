/* strjoin() with empty strings. */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s]\n", strjoin("", "x"), strjoin("x", ""));
	exit(0);
}
