#pragma D option quiet

BEGIN
{
	printf("[%5.1s][%-+5d][%x][%#-8x][%+05d]\n", "abc", 3, -1, 255, 7);
	exit(0);
}
