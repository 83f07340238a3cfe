/* substr(s, index [, length]): negative values count from the end. */
#pragma D option quiet

BEGIN
{
	s = "hello world";
	printf("[%s] [%s] [%s]\n", substr(s, 6), substr(s, 0, 5), substr(s, 1, 3));
	printf("[%s] [%s]\n", substr(s, -5), substr(s, -5, 2));
	printf("[%s] [%s] [%s]\n", substr(s, 20), substr(s, 3, 0), substr(s, 2, -3));
	printf("[%s] [%s]\n", substr(s, -20), substr(s, -13, 4));
	exit(0);
}
