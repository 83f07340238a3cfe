#pragma D option quiet

BEGIN
{
	printf("[%c][%c][%3c][%-3c]\n", 65, (char)0x7a, 66, 67);
	exit(0);
}
