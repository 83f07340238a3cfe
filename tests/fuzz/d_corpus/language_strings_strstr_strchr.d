/*
 * strstr(), strchr() and strrchr() return the rest of the string from the
 * match. (Without a match they return NULL, which printf's %s faults on.)
 */
#pragma D option quiet

BEGIN
{
	s = "the quick brown fox";
	printf("[%s] [%s]\n", strstr(s, "quick"), strstr(s, "fox"));
	printf("[%s] [%s] [%s]\n", strchr(s, 'o'), strrchr(s, 'o'), strchr(s, 't'));
	exit(0);
}
