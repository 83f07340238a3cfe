/* strlen() and strjoin(). */
#pragma D option quiet

BEGIN
{
	s = strjoin("hello", ", world");
	printf("%s %d\n", s, strlen(s));
	printf("%d %d\n", strlen(""), strlen(strjoin("", "")));
	printf("%s\n", strjoin(strjoin("a", "b"), strjoin("c", "d")));
	exit(0);
}
