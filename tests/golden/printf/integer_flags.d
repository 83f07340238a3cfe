#pragma D option quiet

BEGIN
{
	printf("[%5d][%-5d][%05d][%+d][% d][%+d]\n", 42, 42, 42, 42, 42, -42);
	printf("[%#o][%#x][%#X][%#x]\n", 8, 255, 255, 0);
	printf("[%'d]\n", 1234567);
	exit(0);
}
