#pragma D option quiet

BEGIN
{
	printf("[%.*s][%*.*s][%.*d]\n", 2, "abcdef", 5, 1, "xyz", 4, 9);
	exit(0);
}
